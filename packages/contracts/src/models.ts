import { z } from 'zod';
import { defineContract } from './contract.ts';
import { text } from './text.ts';

/** "width:height", e.g. "16:9"; each model lists the ratios it supports. */
export const AspectRatio = text().regex(/^\d{1,2}:\d{1,2}$/, 'Use an aspect ratio like 16:9');
export type AspectRatio = z.infer<typeof AspectRatio>;

/** The vendors a model can run on: the local engine, hosted APIs, and the operator's own GPU servers. */
export const VENDORS = ['local', 'fal', 'replicate', 'comfyui', 'a1111', 'openai'] as const;
export const Vendor = z.enum(VENDORS);
export type Vendor = z.infer<typeof Vendor>;

export const ModelInfo = z
  .object({
    id: z.string(),
    display_name: z.string(),
    description: z.string(),
    provider: Vendor,
    capability: z.string(),
    /** False when the model's provider has no key configured: listed, but it cannot be used. */
    available: z.boolean(),
    unavailable_reason: z.string().nullable(),
    credit_cost: z.int().describe('Credits per image'),
    default_width: z.int(),
    default_height: z.int(),
    aspect_ratios: z.array(AspectRatio),
    max_images: z.int(),
    supports: z.object({
      negative_prompt: z.boolean(),
      seed: z.boolean(),
      lora_scale: z.boolean(),
      prompt_strength: z.boolean(),
    }),
    accepts_lora: z.boolean(),
    /** Set on the caller's own trained models (listed after the shared ones, under their own heading). */
    personal: z
      .object({ trigger_word: z.string(), cover_url: z.string().nullable() })
      .nullable()
      .describe('Null for shared models'),
    /** Set on `train` models: the step bounds the form offers and the text-to-image model it extends. */
    training: z
      .object({ min_steps: z.int(), max_steps: z.int(), default_steps: z.int(), base_model: z.string() })
      .nullable()
      .describe('Null for models that do not train'),
  })
  .meta({ id: 'ModelInfo' });
export type ModelInfo = z.infer<typeof ModelInfo>;

export const modelsContract = defineContract({
  method: 'GET',
  path: '/api/models',
  summary: 'The model catalogue with availability and credit costs',
  tags: ['models'],
  auth: false,
  response: z.object({ models: z.array(ModelInfo) }).meta({ id: 'ModelList' }),
});
