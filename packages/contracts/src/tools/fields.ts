import { z } from 'zod';
import { PROMPT_MAX_LENGTH, SEED_MAX } from '../generation.ts';
import { text } from '../text.ts';

/** Field schemas the tool requests share. */

export const optionalText = (what: string) =>
  text({ multiline: true })
    .trim()
    .max(PROMPT_MAX_LENGTH, `Keep the ${what} under ${PROMPT_MAX_LENGTH} characters`)
    .nullish()
    .transform((v) => v || undefined);

export const requiredText = (what: string, empty: string) =>
  text({ multiline: true, error: `${what} is required` })
    .trim()
    .min(1, empty)
    .max(PROMPT_MAX_LENGTH, `Keep the ${what} under ${PROMPT_MAX_LENGTH} characters`);

/** Multipart fields arrive as strings: empty means "not given"; anything else must be the number itself. */
export const formField = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

export const Seed = z.int('seed must be a whole number').min(0).max(SEED_MAX, `seed must be 0–${SEED_MAX}`);
export const Strength = z
  .number('strength must be a number')
  .min(0.05, 'strength must be at least 0.05')
  .max(1, 'strength must be at most 1');
export const ModelId = text()
  .trim()
  .min(1)
  .max(100)
  .optional()
  .describe('A tool model id from GET /api/tools; omitted = the default');
export const ImageId = z.uuid('Not an image id');
