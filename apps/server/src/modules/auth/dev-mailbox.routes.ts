import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { DevMailbox } from '../../adapters/mail/dev-mailbox.mailer.ts';
import { route } from '../../http/route.ts';

/** `GET /api/dev/mailbox`: registered only outside production and only when the dev mailbox is in use. */
export function devMailboxRoutes(app: FastifyInstance, mailbox: DevMailbox): void {
  route(app, contracts.devMailbox, async (request) => mailbox.list({ to: request.query.to }));
}
