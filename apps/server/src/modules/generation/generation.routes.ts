import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { toJobAccepted } from '../jobs/jobs.mapper.ts';
import type { GenerationService } from './generation.service.ts';

export interface GenerationRouteDeps {
  generation: GenerationService;
}

/** Prompt → job (its progress and cancel are the jobs module's; the model list is the models module's). */
export function generationRoutes(app: FastifyInstance, deps: GenerationRouteDeps): void {
  const auth = { preHandler: app.requireUser };
  const { generation } = deps;

  route(
    app,
    contracts.prompt,
    async ({ user, body }) => {
      const started = await generation.create(user.id, {
        text: body.text,
        negativeText: body.negative_text,
        model: body.model,
        seed: body.seed,
        loraScale: body.lora_scale,
        promptStrength: body.prompt_strength,
        aspectRatio: body.aspect_ratio,
        numImages: body.num_images,
      });
      return toJobAccepted(started);
    },
    auth,
  );
}
