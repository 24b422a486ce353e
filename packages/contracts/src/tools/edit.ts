import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { JobAccepted } from '../generation.ts';
import { decimalNumber, safeUrl, wholeNumber } from '../text.ts';
import type { ToolDefinition } from './definition.ts';
import { formField, ImageId, ModelId, optionalText, requiredText, Seed, Strength } from './fields.ts';

export const EDIT_DEFAULT_STRENGTH = 0.6;

export const EditImageRequest = z
  .object({
    image_id: ImageId.optional().describe('One of your images'),
    image_url: safeUrl('image_url must be a web address')
      .max(2048)
      .optional()
      .describe('An http(s) image we fetch and store as one of your uploads'),
    prompt: requiredText('prompt', 'Describe the change you want'),
    negative_prompt: optionalText('negative prompt'),
    strength: Strength.optional().describe('0.05–1: how far the result may move from the original'),
    seed: Seed.nullish().transform((v) => v ?? undefined),
    model: ModelId,
  })
  .refine((b) => Boolean(b.image_id) !== Boolean(b.image_url), {
    message: 'Give exactly one of image_id or image_url',
  })
  .meta({ id: 'EditImageRequest' });

export const EditImageFileFields = z.object({
  prompt: requiredText('prompt', 'Describe the change you want'),
  negative_prompt: optionalText('negative prompt'),
  strength: formField(decimalNumber('strength must be a number').pipe(Strength)),
  seed: formField(wholeNumber('seed must be a whole number').pipe(Seed)),
  model: ModelId,
});

export const editImageContract = defineContract({
  method: 'POST',
  path: '/api/generate/falai/edit_image',
  summary: 'Edit one of your images (by id or by URL) from a prompt: charges credits and queues a job',
  tags: ['tools'],
  body: EditImageRequest,
  response: JobAccepted,
  status: 202,
});

export const EditImageFileForm = { files: ['image_file'], fields: EditImageFileFields } as const;

export const editImageFileContract = defineContract({
  method: 'POST',
  path: '/api/generate/falai/edit_image_file',
  summary:
    'Edit an uploaded image (multipart: image_file, prompt, negative_prompt?, strength?, seed?, model?)',
  tags: ['tools'],
  form: EditImageFileForm,
  response: JobAccepted,
  status: 202,
});

export const editTool = {
  tool: 'edit',
  contracts: [editImageContract, editImageFileContract],
  slots: [
    {
      name: 'image',
      label: 'the image to edit',
      fileField: 'image_file',
      idField: 'image_id',
      urlField: 'image_url',
      required: true,
    },
  ],
  defaults: { strength: EDIT_DEFAULT_STRENGTH },
  price: { per: 'run' },
} as const satisfies ToolDefinition;
