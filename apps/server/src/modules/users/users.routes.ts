import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { UserDirectory } from './users.service.ts';

/** The signed-in user's profile. */
export function userRoutes(app: FastifyInstance, users: UserDirectory): void {
  route(app, contracts.currentUser, async (request) => users.profile(request.user.id), {
    preHandler: app.requireUser,
  });
}
