import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { ToolRunsService } from './tool-runs.service.ts';

/** GET /api/tools/runs: the Studio's history of the signed-in person's runs. */
export function toolRunsRoutes(app: FastifyInstance, runs: ToolRunsService): void {
  route(app, contracts.toolRuns, async ({ user, query }) => runs.list(user.id, query), {
    preHandler: app.requireUser,
  });
}
