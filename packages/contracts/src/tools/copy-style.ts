import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { JobAccepted } from '../generation.ts';
import { wholeNumber } from '../text.ts';
import type { ToolDefinition } from './definition.ts';
import { formField, ModelId, requiredText, Seed } from './fields.ts';

export const CopyStyleFields = z.object({
  description: requiredText('description', 'Describe the picture to make in this style'),
  model: ModelId,
  seed: formField(wholeNumber('seed must be a whole number').pipe(Seed)),
});

export const CopyStyleForm = { files: ['image'], fields: CopyStyleFields } as const;

export const copyStyleContract = defineContract({
  method: 'POST',
  path: '/api/copy_style',
  summary: 'A new image in the style of an upload (multipart: image, description, model?, seed?)',
  tags: ['tools'],
  form: CopyStyleForm,
  response: JobAccepted,
  status: 202,
});

export const copyStyleTool = {
  tool: 'copy_style',
  contracts: [copyStyleContract],
  slots: [{ name: 'image', label: 'the style reference image', fileField: 'image', required: true }],
  defaults: {},
  price: { per: 'run' },
} as const satisfies ToolDefinition;
