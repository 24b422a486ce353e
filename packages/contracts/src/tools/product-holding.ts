import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { JobAccepted } from '../generation.ts';
import { wholeNumber } from '../text.ts';
import type { ToolDefinition } from './definition.ts';
import { formField, ImageId, ModelId, optionalText, Seed } from './fields.ts';

/** Aspect ratios product holding offers (spec: "a fixed list"). */
export const PRODUCT_ASPECT_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'] as const;

export const ProductHoldingFields = z.object({
  person_image_id: ImageId.optional(),
  product_image_id: ImageId.optional(),
  aspect_ratio: z.enum(PRODUCT_ASPECT_RATIOS, {
    error: `aspect_ratio must be one of ${PRODUCT_ASPECT_RATIOS.join(', ')}`,
  }),
  prompt: optionalText('prompt'),
  model: ModelId,
  seed: formField(wholeNumber('seed must be a whole number').pipe(Seed)),
});

export const ProductHoldingForm = {
  files: ['person_file', 'product_file'],
  fields: ProductHoldingFields,
} as const;

export const productHoldingContract = defineContract({
  method: 'POST',
  path: '/api/generate/falai/product_holding',
  summary:
    'A picture of a person holding a product (multipart: person_file | person_image_id, product_file | product_image_id, aspect_ratio, prompt?, model?)',
  tags: ['tools'],
  form: ProductHoldingForm,
  response: JobAccepted,
  status: 202,
});

export const productHoldingTool = {
  tool: 'product_holding',
  contracts: [productHoldingContract],
  slots: [
    {
      name: 'person',
      label: 'person photo',
      fileField: 'person_file',
      idField: 'person_image_id',
      required: true,
    },
    {
      name: 'product',
      label: 'product photo',
      fileField: 'product_file',
      idField: 'product_image_id',
      required: true,
    },
  ],
  defaults: {},
  price: { per: 'run' },
} as const satisfies ToolDefinition;
