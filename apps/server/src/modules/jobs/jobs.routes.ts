import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { StreamSlots } from '../limits/stream-slots.ts';
import type { JobsService } from './jobs.service.ts';
import type { ProgressBus } from './progress.bus.ts';
import { progressStreams } from './progress.stream.ts';

export interface JobRouteDeps {
  jobs: JobsService;
  bus: ProgressBus;
  /** Open progress streams per person (SSE_STREAMS_PER_USER). */
  streamSlots: StreamSlots;
}

/** A person's jobs of every kind: progress (snapshot and live stream) and cancel. */
export function jobsRoutes(app: FastifyInstance, deps: JobRouteDeps): void {
  const auth = { preHandler: app.requireUser };
  const { jobs } = deps;
  route(app, contracts.progress, async ({ user }) => ({ jobs: await jobs.progress(user.id) }), auth);
  const stream = progressStreams(app, jobs, deps.bus, deps.streamSlots);
  route(
    app,
    contracts.progressStream,
    async (request, reply) => {
      await stream(request, reply);
      return '';
    },
    auth,
  );
  route(
    app,
    contracts.jobPreview,
    async ({ user, params }, reply) => {
      const preview = await jobs.preview(user.id, params.id);
      return reply
        .type(preview.contentType ?? 'image/jpeg')
        .header('cache-control', 'private, no-store')
        .send(preview.body);
    },
    auth,
  );
  route(app, contracts.cancelJob, async ({ user, params }) => jobs.cancel(user.id, params.id), auth);
}
