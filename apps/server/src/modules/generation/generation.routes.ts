import { contracts, type ModelInfo } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { StreamSlots } from '../limits/stream-slots.ts';
import type { GenerationService } from './generation.service.ts';
import type { ProgressBus } from './progress.bus.ts';
import { progressStreams } from './progress.stream.ts';

export interface GenerationRouteDeps {
  generation: GenerationService;
  bus: ProgressBus;
  models: () => ModelInfo[];
  /** Open progress streams per person (SSE_STREAMS_PER_USER). */
  streamSlots: StreamSlots;
}

/** Prompt → job, live progress, cancel, and the model list. */
export function generationRoutes(app: FastifyInstance, deps: GenerationRouteDeps): void {
  const auth = { preHandler: app.requireUser };
  const { generation } = deps;

  route(
    app,
    contracts.prompt,
    async ({ user, body }) => {
      const { job, cost, balance } = await generation.create(user.id, {
        text: body.text,
        negativeText: body.negative_text,
        model: body.model,
        seed: body.seed,
        loraScale: body.lora_scale,
        promptStrength: body.prompt_strength,
        aspectRatio: body.aspect_ratio,
        numImages: body.num_images,
      });
      return { job_id: job.id, status: 'queued' as const, cost, balance };
    },
    auth,
  );
  route(app, contracts.progress, async ({ user }) => ({ jobs: await generation.progress(user.id) }), auth);
  const stream = progressStreams(app, generation, deps.bus, deps.streamSlots);
  route(
    app,
    contracts.progressStream,
    async (request, reply) => {
      await stream(request, reply);
      return '';
    },
    auth,
  );
  route(app, contracts.cancelJob, async ({ user, params }) => generation.cancel(user.id, params.id), auth);
  route(app, contracts.models, async () => ({ models: deps.models() }));
}
