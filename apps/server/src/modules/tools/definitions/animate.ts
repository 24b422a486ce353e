import { ANIMATE_DEFAULT_DURATION, contracts, animateTool } from '@lumina/contracts';
import { NO_SETTINGS, toolRoute, type ServerTool } from '../tool-definition.ts';

const { tool } = animateTool;

export const animate: ServerTool = {
  tool,
  routes: [
    toolRoute(contracts.animate, async ({ body }) => ({
      model: body.model,
      sources: [{ imageId: body.image_id }],
      seed: body.seed,
      settings: { ...NO_SETTINGS, prompt: body.prompt ?? null, durationSeconds: body.duration },
    })),
  ],
  request: (input, [image], common) => ({
    ...common,
    tool,
    image: image!,
    prompt: input.prompt ?? undefined,
    durationSeconds: input.durationSeconds ?? ANIMATE_DEFAULT_DURATION,
  }),
};
