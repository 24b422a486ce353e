import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { route } from '../../http/route.ts';
import { toReadinessView } from './system.mapper.ts';

/** Liveness and readiness for load balancers and orchestrators. */
export function systemRoutes(app: FastifyInstance, { database, queue, storage }: Container): void {
  route(app, contracts.health, async () => ({ status: 'ok' as const }));

  route(app, contracts.ready, async (_request, reply) => {
    const [db, q, files] = await Promise.all([
      database.ping().catch(() => false),
      queue.ping().catch(() => false),
      storage.check().then(
        () => true,
        () => false,
      ),
    ]);
    const view = toReadinessView({ database: db, queue: q, storage: files });
    if (view.status !== 'ready') reply.code(503);
    return view;
  });
}
