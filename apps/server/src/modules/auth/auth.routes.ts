import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { route } from '../../http/route.ts';
import { registerAuthGuard } from '../../plugins/auth-guard.ts';
import { userRoutes } from '../users/users.routes.ts';
import { accountRoutes } from './account.routes.ts';
import { AUTH_BASE_PATH, type AuthModule } from './auth.module.ts';
import { devMailboxRoutes } from './dev-mailbox.routes.ts';
import { fdiPlugin } from './fdi.plugin.ts';

/**
 * Everything the sign-in layer adds to the app: the `app.requireUser` guard (register before product
 * routes), the FDI routes under `/auth`, `GET /api/user`, the public `GET /api/auth/config`, and the development mailbox outside production.
 */
export async function registerAuth(app: FastifyInstance, auth: AuthModule, db: Database): Promise<void> {
  registerAuthGuard(app, auth);
  await app.register(fdiPlugin, { prefix: AUTH_BASE_PATH, auth, db, webDistDir: auth.config.webDistDir });
  userRoutes(app, auth.users);
  accountRoutes(app, auth);
  route(app, contracts.authConfig, async () => ({ emailVerification: auth.config.auth.emailVerification }));
  if (auth.config.env !== 'production' && auth.mailbox) devMailboxRoutes(app, auth.mailbox);
}
