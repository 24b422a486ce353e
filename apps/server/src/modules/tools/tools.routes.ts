import { contracts, TOOLS } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { toJobAccepted } from '../jobs/jobs.mapper.ts';
import { SERVER_TOOLS } from './definitions/index.ts';
import type { ToolRouteContext } from './tool-definition.ts';
import { toToolList } from './tools.mapper.ts';
import type { ToolsService } from './tools.service.ts';

export interface ToolRouteDeps extends ToolRouteContext {
  tools: ToolsService<{ id: string }>;
}

/** Every tool's routes (from its definition in ./definitions) and the tool catalogue. */
export function toolsRoutes(app: FastifyInstance, deps: ToolRouteDeps): void {
  const auth = { preHandler: app.requireUser };
  const { tools } = deps;

  for (const { tool, routes } of SERVER_TOOLS) {
    for (const { contract, read } of routes) {
      route(
        app,
        contract,
        async (request) => {
          const run = await read(request, deps);
          return toJobAccepted(await tools.start(request.user.id, { tool, ...run }));
        },
        auth,
      );
    }
  }

  route(app, contracts.tools, async () => toToolList(tools.catalogue(TOOLS), deps.uploads));
}
