import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { route } from '../../http/route.ts';
import { toReadinessView } from './system.mapper.ts';

/** Liveness and readiness for load balancers and orchestrators. */
export function systemRoutes(app: FastifyInstance, { database, queue, storage, services }: Container): void {
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
    // Each vendor's breaker is information for people and dashboards, never a reason for 503. A load
    // balancer takes a 503 instance out of rotation; but every instance shares the same vendors (and
    // the same breaker rows), so pulling one would only move the same jobs to a sibling that sees the
    // same open breaker, while this one could still serve the gallery, sign-in, the local engine and
    // the alternates. An outage of a vendor is handled per job (failover, fail fast with a refund).
    const vendors = db ? await services.vendors.service.readiness().catch(() => []) : [];
    const view = toReadinessView({ database: db, queue: q, storage: files }, vendors);
    if (view.status !== 'ready') reply.code(503);
    return view;
  });
}
