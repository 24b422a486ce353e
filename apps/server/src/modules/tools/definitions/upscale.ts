import { contracts, upscaleTool, UPSCALE_DEFAULT_FACTOR, upscaleRefusal } from '@lumina/contracts';
import { AppError } from '../../../errors.ts';
import { NO_SETTINGS, toolRoute, type ServerTool } from '../tool-definition.ts';

const { tool } = upscaleTool;

export const upscale: ServerTool = {
  tool,
  routes: [
    toolRoute(contracts.upscale, async ({ body }) => ({
      model: body.model,
      sources: [{ imageId: body.image_id }],
      settings: { ...NO_SETTINGS, factor: body.factor },
      check: ([image]) => {
        const refusal = upscaleRefusal(image!, body.factor);
        if (refusal) throw new AppError('VALIDATION_FAILED', refusal);
      },
    })),
  ],
  request: (input, [image], common) => ({
    ...common,
    tool,
    image: image!,
    factor: input.factor ?? UPSCALE_DEFAULT_FACTOR,
  }),
};
