import { contracts, ProductHoldingForm, productHoldingTool } from '@lumina/contracts';
import { readForm } from '../../uploads/multipart.ts';
import { sizeForAspectRatio } from '../tool-recipe.ts';
import { NO_SETTINGS, oneSource, toolRoute, type ServerTool } from '../tool-definition.ts';

const { tool, slots } = productHoldingTool;
const [person, product] = slots;

export const productHolding: ServerTool = {
  tool,
  routes: [
    toolRoute(contracts.productHolding, async (request, { uploads }) => {
      const { fields, files } = await readForm(request, ProductHoldingForm, uploads.maxBytes);
      return {
        model: fields.model,
        sources: [
          oneSource(files, fields.person_image_id, person),
          oneSource(files, fields.product_image_id, product),
        ],
        seed: fields.seed,
        settings: {
          ...NO_SETTINGS,
          prompt: fields.prompt ?? null,
          aspectRatio: fields.aspect_ratio,
          ...sizeForAspectRatio(fields.aspect_ratio),
        },
      };
    }),
  ],
  request: (input, [personImage, productImage], common) => ({
    ...common,
    tool,
    person: personImage!,
    product: productImage!,
    aspectRatio: input.aspectRatio ?? '1:1',
    width: input.width ?? 1024,
    height: input.height ?? 1024,
    prompt: input.prompt ?? undefined,
  }),
};
