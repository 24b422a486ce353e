import { contracts } from '@lumina/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DevMailbox } from '../../adapters/mail/dev-mailbox.mailer.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../http/route.ts';

/**
 * True when the TCP peer is this machine. The socket's own address, never `request.ip`: with a trusted
 * proxy that comes from X-Forwarded-For, which any caller can write.
 */
export function fromLoopback(request: FastifyRequest): boolean {
  const peer = request.raw.socket.remoteAddress ?? '';
  return peer === '::1' || /^(?:::ffff:)?127\./.test(peer);
}

/**
 * `GET /api/dev/mailbox`: registered only outside production and only when the dev mailbox is in use,
 * and answered only to callers on this machine, since it hands out every sign-in code.
 */
export function devMailboxRoutes(app: FastifyInstance, mailbox: DevMailbox): void {
  route(app, contracts.devMailbox, async (request) => {
    if (!fromLoopback(request)) {
      throw new AppError('NOT_FOUND', 'The development mailbox is only served to this machine (127.0.0.1).');
    }
    return mailbox.list({ to: request.query.to });
  });
}
