import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { VendorsService } from './vendors.service.ts';

/** The operator console's vendors page: breakers, failures, models; reset one breaker. Operators only. */
export function vendorsRoutes(app: FastifyInstance, vendors: VendorsService): void {
  const auth = { preHandler: app.requireUser };
  route(app, contracts.operatorVendors, async ({ user }) => vendors.operatorView(user.id), auth);
  route(app, contracts.resetVendor, async ({ user, params }) => vendors.reset(user.id, params.name), auth);
}
