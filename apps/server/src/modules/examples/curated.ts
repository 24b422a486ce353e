import { z } from 'zod';

/** One example to render: where it is published, what it says, and how it is rendered. */
export const ExampleSpecSchema = z.object({
  category: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[\p{L}\p{N} &'-]+$/u, 'use letters, numbers, spaces, & and -'),
  prompt: z.string().trim().min(1).max(2000),
  negative_prompt: z.string().max(2000).optional(),
  /** A local model (the local engine renders examples offline); local-aurora by default. */
  model: z.string().min(1).max(100).default('local-aurora'),
  aspect_ratio: z.enum(['1:1', '4:3', '3:4', '3:2', '2:3', '16:9', '9:16']).default('1:1'),
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
});
export type ExampleSpec = z.output<typeof ExampleSpecSchema>;
export const ExampleSpecsSchema = z.array(ExampleSpecSchema).min(1).max(200);

/**
 * The curated set a fresh install publishes: prompts the local engine renders well, three per
 * category. Operators replace it with EXAMPLES_FILE (same shape as JSON) or unpublish and publish their own.
 */
export const CURATED_EXAMPLES: readonly ExampleSpec[] = ExampleSpecsSchema.parse([
  {
    category: 'Landscapes',
    prompt: 'Misty mountain lake at sunrise, pine forest, golden light on the water',
    aspect_ratio: '3:2',
    seed: 1101,
  },
  {
    category: 'Landscapes',
    prompt: 'Desert dunes under a violet dusk sky with the first stars',
    aspect_ratio: '16:9',
    seed: 1102,
  },
  {
    category: 'Landscapes',
    prompt: 'Stormy sea at dusk, crashing waves against dark cliffs, dramatic clouds',
    aspect_ratio: '4:3',
    seed: 1103,
  },
  {
    category: 'Cities',
    prompt: 'Neon city at night in the rain, glowing signs reflected in wet streets',
    aspect_ratio: '2:3',
    seed: 2101,
  },
  {
    category: 'Cities',
    prompt: 'Quiet old town at golden hour, warm windows, long shadows',
    aspect_ratio: '3:2',
    seed: 2102,
  },
  {
    category: 'Cities',
    prompt: 'Futuristic skyline at dawn, glass towers in pastel fog',
    aspect_ratio: '16:9',
    seed: 2103,
  },
  {
    category: 'Abstract',
    prompt: 'Flowing ribbons of teal and gold light, smooth gradients, abstract',
    aspect_ratio: '1:1',
    seed: 3101,
  },
  {
    category: 'Abstract',
    prompt: 'Swirling nebula of magenta and deep blue, cosmic dust, glowing core',
    aspect_ratio: '3:4',
    seed: 3102,
  },
  {
    category: 'Abstract',
    prompt: 'Marbled ink waves in coral, cream and navy, organic flow',
    aspect_ratio: '1:1',
    seed: 3103,
  },
  {
    category: 'Posters',
    model: 'local-prism',
    prompt: 'Bold geometric mountain poster, low-poly peaks, sunset orange and indigo',
    aspect_ratio: '2:3',
    seed: 4101,
  },
  {
    category: 'Posters',
    model: 'local-prism',
    prompt: 'Retro geometric sun over the sea, crisp flat shapes, mint and red',
    aspect_ratio: '3:4',
    seed: 4102,
  },
  {
    category: 'Posters',
    model: 'local-prism',
    prompt: 'Minimal faceted fox portrait, triangles, autumn colours on cream',
    aspect_ratio: '1:1',
    seed: 4103,
  },
]);
