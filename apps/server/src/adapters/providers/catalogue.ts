import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LOCAL_MODEL_NAMES } from './local/presets.ts';

/**
 * The model catalogue, as data: which models people can pick, which provider runs each, what each
 * supports and costs. A built-in list serves the product offline and with fal.ai / Replicate keys;
 * operators adjust it without code through MODELS_JSON (inline JSON) or MODELS_FILE (a JSON file),
 * validated at boot (see config.ts).
 *
 * Override format: a JSON array of models. An entry whose id matches a built-in model is merged over
 * it (`[{"id":"flux-dev","creditCost":6}]`); `{"id":"sdxl","remove":true}` drops one; any other id
 * must be a complete model. `{"replace":true,"models":[…]}` replaces the built-in list instead.
 */

export const CAPABILITIES = ['text-to-image'] as const; // image tools and training add theirs later
export const PROVIDERS = ['local', 'fal', 'replicate'] as const;

const int = (what: string) =>
  z.number({ error: `${what} must be a number` }).int(`${what} must be a whole number`);

const AspectRatio = z
  .string()
  .regex(/^\d{1,2}:\d{1,2}$/, 'aspect ratios look like "16:9"')
  .refine((r) => r.split(':').every((n) => Number(n) > 0), 'aspect ratio parts must be positive');

const Size = z.object({
  width: int('width').min(64).max(4096),
  height: int('height').min(64).max(4096),
});

const Sizes = z.discriminatedUnion('mode', [
  /** Any width and height in [min, max] that are multiples of `multipleOf`. */
  z.object({
    mode: z.literal('custom'),
    min: int('sizes.min').min(64),
    max: int('sizes.max').max(4096),
    multipleOf: int('sizes.multipleOf').min(1).max(256),
  }),
  /** The vendor takes an aspect ratio, not pixels (Replicate FLUX): only `aspectRatios` apply. */
  z.object({ mode: z.literal('aspect-ratio') }),
]);

export const ModelEntrySchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'model ids are 2-63 lowercase letters, digits and dashes'),
    displayName: z.string().trim().min(1).max(80),
    description: z.string().max(400).default(''),
    provider: z.enum(PROVIDERS, { error: `provider must be one of ${PROVIDERS.join(', ')}` }),
    /** The vendor's model name: `local/aurora`, `fal-ai/flux/dev`, `black-forest-labs/flux-schnell`… */
    providerModel: z.string().min(1),
    capability: z.enum(CAPABILITIES).default('text-to-image'),
    defaultSize: Size,
    sizes: Sizes,
    /** Aspect ratios the UI offers; each maps to a size near the default size's area (`sizeFor`). */
    aspectRatios: z.array(AspectRatio).min(1),
    supports: z.object({
      negativePrompt: z.boolean(),
      seed: z.boolean(),
      loraScale: z.boolean(),
      promptStrength: z.boolean(),
      /** Images one request may ask for. */
      maxImages: int('supports.maxImages').min(1).max(8),
    }),
    /** Credits charged per image. */
    creditCost: int('creditCost').min(0).max(10_000),
    /** Whether a trained model (LoRA / local style) can be applied. */
    acceptsLora: z.boolean(),
  })
  .superRefine((m, ctx) => {
    if (m.provider === 'local' && !(LOCAL_MODEL_NAMES as string[]).includes(m.providerModel)) {
      ctx.addIssue({
        code: 'custom',
        path: ['providerModel'],
        message: `local models are one of ${LOCAL_MODEL_NAMES.join(', ')}`,
      });
    }
    if (m.sizes.mode === 'custom') {
      const { min, max, multipleOf } = m.sizes;
      if (min > max) ctx.addIssue({ code: 'custom', path: ['sizes'], message: 'min must not exceed max' });
      for (const side of ['width', 'height'] as const) {
        const v = m.defaultSize[side];
        if (v < min || v > max || v % multipleOf !== 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['defaultSize', side],
            message: `must be a multiple of ${multipleOf} from ${min} to ${max}`,
          });
        }
      }
    }
  });

export type ModelEntry = z.output<typeof ModelEntrySchema>;
export type ModelSupports = ModelEntry['supports'];

const SQUARE_AND_COMMON = ['1:1', '4:3', '3:4', '3:2', '2:3', '16:9', '9:16'];
const REPLICATE_FLUX_RATIOS = [
  '1:1',
  '16:9',
  '21:9',
  '3:2',
  '2:3',
  '4:5',
  '5:4',
  '3:4',
  '4:3',
  '9:16',
  '9:21',
];
const LOCAL_SIZES = { mode: 'custom', min: 256, max: 2048, multipleOf: 8 } as const;

const entry = (m: z.input<typeof ModelEntrySchema>): ModelEntry => ModelEntrySchema.parse(m);

/** The built-in catalogue. Local models first: they always work, offline, and are the default. */
export const BUILT_IN_MODELS: readonly ModelEntry[] = [
  entry({
    id: 'local-aurora',
    displayName: 'Aurora · local procedural engine',
    description:
      'Local procedural engine, general purpose: painterly landscapes, skies, cities, portraits and abstract flow. ' +
      'Runs offline on this server; not a neural network, so it paints what your words describe in its own style.',
    provider: 'local',
    providerModel: 'local/aurora',
    defaultSize: { width: 1024, height: 1024 },
    sizes: LOCAL_SIZES,
    aspectRatios: SQUARE_AND_COMMON,
    supports: { negativePrompt: true, seed: true, loraScale: true, promptStrength: true, maxImages: 4 },
    creditCost: 1,
    acceptsLora: true,
  }),
  entry({
    id: 'local-prism',
    displayName: 'Prism · local procedural engine',
    description:
      'Local procedural engine, geometric and illustrative: low-poly facets, bold shapes, crisp poster colours. ' +
      'Runs offline on this server; not a neural network.',
    provider: 'local',
    providerModel: 'local/prism',
    defaultSize: { width: 1024, height: 1024 },
    sizes: LOCAL_SIZES,
    aspectRatios: SQUARE_AND_COMMON,
    supports: { negativePrompt: true, seed: true, loraScale: true, promptStrength: true, maxImages: 4 },
    creditCost: 1,
    acceptsLora: true,
  }),
  entry({
    id: 'flux-schnell',
    displayName: 'FLUX.1 [schnell] (fal.ai)',
    description: 'Fast FLUX text-to-image in 1 to 4 steps, hosted by fal.ai.',
    provider: 'fal',
    providerModel: 'fal-ai/flux/schnell',
    defaultSize: { width: 1024, height: 768 },
    sizes: { mode: 'custom', min: 256, max: 2048, multipleOf: 16 },
    aspectRatios: SQUARE_AND_COMMON,
    supports: { negativePrompt: false, seed: true, loraScale: false, promptStrength: false, maxImages: 4 },
    creditCost: 2,
    acceptsLora: false,
  }),
  entry({
    id: 'flux-dev',
    displayName: 'FLUX.1 [dev] (fal.ai)',
    description: 'High-quality FLUX text-to-image (28 steps), hosted by fal.ai.',
    provider: 'fal',
    providerModel: 'fal-ai/flux/dev',
    defaultSize: { width: 1024, height: 768 },
    sizes: { mode: 'custom', min: 256, max: 2048, multipleOf: 16 },
    aspectRatios: SQUARE_AND_COMMON,
    supports: { negativePrompt: false, seed: true, loraScale: false, promptStrength: false, maxImages: 4 },
    creditCost: 5,
    acceptsLora: false,
  }),
  entry({
    id: 'flux-lora',
    displayName: 'FLUX.1 [dev] with LoRA (fal.ai)',
    description:
      'FLUX [dev] that applies a trained model (LoRA) at the strength you choose, hosted by fal.ai.',
    provider: 'fal',
    providerModel: 'fal-ai/flux-lora',
    defaultSize: { width: 1024, height: 1024 },
    sizes: { mode: 'custom', min: 256, max: 2048, multipleOf: 16 },
    aspectRatios: SQUARE_AND_COMMON,
    supports: { negativePrompt: false, seed: true, loraScale: true, promptStrength: false, maxImages: 4 },
    creditCost: 6,
    acceptsLora: true,
  }),
  entry({
    id: 'flux-schnell-replicate',
    displayName: 'FLUX.1 [schnell] (Replicate)',
    description: 'Fast FLUX text-to-image, hosted by Replicate. Sizes are chosen by aspect ratio.',
    provider: 'replicate',
    providerModel: 'black-forest-labs/flux-schnell',
    defaultSize: { width: 1024, height: 1024 },
    sizes: { mode: 'aspect-ratio' },
    aspectRatios: REPLICATE_FLUX_RATIOS,
    supports: { negativePrompt: false, seed: true, loraScale: false, promptStrength: false, maxImages: 4 },
    creditCost: 2,
    acceptsLora: false,
  }),
  entry({
    id: 'flux-dev-replicate',
    displayName: 'FLUX.1 [dev] (Replicate)',
    description: 'High-quality FLUX text-to-image, hosted by Replicate. Sizes are chosen by aspect ratio.',
    provider: 'replicate',
    providerModel: 'black-forest-labs/flux-dev',
    defaultSize: { width: 1024, height: 1024 },
    sizes: { mode: 'aspect-ratio' },
    aspectRatios: REPLICATE_FLUX_RATIOS,
    supports: { negativePrompt: false, seed: true, loraScale: false, promptStrength: false, maxImages: 4 },
    creditCost: 5,
    acceptsLora: false,
  }),
  entry({
    id: 'sdxl',
    displayName: 'Stable Diffusion XL (Replicate)',
    description: 'Stability AI SDXL 1.0 with negative prompts, hosted by Replicate.',
    provider: 'replicate',
    // Community models on Replicate run by version; this is SDXL 1.0's published version.
    providerModel: 'stability-ai/sdxl:39ed52f2a78e934b3ba6e2a89f5b1c712de7dfea535525255b1aa35c5565e08b',
    defaultSize: { width: 1024, height: 1024 },
    sizes: { mode: 'custom', min: 512, max: 1536, multipleOf: 8 },
    aspectRatios: SQUARE_AND_COMMON,
    supports: { negativePrompt: true, seed: true, loraScale: false, promptStrength: false, maxImages: 4 },
    creditCost: 3,
    acceptsLora: false,
  }),
];

export const DEFAULT_MODEL_ID = 'local-aurora';

// ---------------------------------------------------------------------------------------------
// Overrides

const Patch = z.looseObject({
  id: z.string().min(1, 'every model needs an id'),
  remove: z.boolean().optional(),
});
const Override = z.union([
  z.array(Patch),
  z.object({ replace: z.boolean().optional(), models: z.array(Patch) }),
]);

export class CatalogueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueError';
  }
}

/**
 * The catalogue with an override applied. `json` is MODELS_JSON's value, `file` MODELS_FILE's path.
 * Throws CatalogueError with a message a person can act on (which model, which field, what is wrong).
 */
export function loadCatalogue(source: { json?: string; file?: string } = {}): ModelEntry[] {
  if (source.json && source.file) throw new CatalogueError('set MODELS_JSON or MODELS_FILE, not both');
  let text = source.json;
  if (source.file) {
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (err) {
      throw new CatalogueError(
        `cannot read ${source.file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      );
    }
  }
  if (!text) return [...BUILT_IN_MODELS];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CatalogueError(`is not valid JSON (${(err as Error).message})`);
  }
  const parsed = Override.safeParse(raw);
  if (!parsed.success) {
    throw new CatalogueError(
      'must be a JSON array of models, e.g. [{"id":"flux-dev","creditCost":6}], or {"replace":true,"models":[…]}',
    );
  }
  const patches = Array.isArray(parsed.data) ? parsed.data : parsed.data.models;
  const replace = !Array.isArray(parsed.data) && parsed.data.replace === true;
  const byId = new Map<string, Record<string, unknown>>(
    replace ? [] : BUILT_IN_MODELS.map((m) => [m.id, m as unknown as Record<string, unknown>]),
  );
  const seen = new Set<string>();
  for (const [index, patch] of patches.entries()) {
    if (seen.has(patch.id)) throw new CatalogueError(`models[${index}]: the id "${patch.id}" appears twice`);
    seen.add(patch.id);
    const { remove, ...fields } = patch;
    if (remove) {
      if (!byId.delete(patch.id))
        throw new CatalogueError(`models[${index}]: cannot remove unknown model "${patch.id}"`);
      continue;
    }
    const base = byId.get(patch.id);
    const merged: Record<string, unknown> = base ? mergeModel(base, fields) : fields;
    const result = ModelEntrySchema.safeParse(merged);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const at = issue.path.length ? `.${issue.path.join('.')}` : '';
      throw new CatalogueError(`models[${index}] ("${patch.id}")${at}: ${issue.message}`);
    }
    byId.set(patch.id, result.data as unknown as Record<string, unknown>);
  }
  const models = [...byId.values()] as unknown as ModelEntry[];
  if (models.length === 0) throw new CatalogueError('leaves no models; keep at least one');
  return models;
}

/** Shallow merge, one level deep for the nested objects (supports, defaultSize, sizes). */
function mergeModel(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const prev = out[k];
    const nested = v && typeof v === 'object' && !Array.isArray(v) && prev && typeof prev === 'object';
    out[k] = nested && !(k === 'sizes' && (v as { mode?: unknown }).mode) ? { ...prev, ...v } : v;
  }
  return out;
}

/** Problem with a catalogue source, for config validation (undefined when fine). */
export function catalogueProblem(source: { json?: string; file?: string }): string | undefined {
  try {
    loadCatalogue(source);
    return undefined;
  } catch (err) {
    if (err instanceof CatalogueError) return err.message;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Sizes

/** A size for `aspectRatio` ("16:9") with about the default size's area, snapped to the model's grid. */
export function sizeFor(model: ModelEntry, aspectRatio: string): { width: number; height: number } {
  const [a, b] = aspectRatio.split(':').map(Number) as [number, number];
  const area = model.defaultSize.width * model.defaultSize.height;
  const step = model.sizes.mode === 'custom' ? model.sizes.multipleOf : 16;
  const min = model.sizes.mode === 'custom' ? model.sizes.min : 256;
  const max = model.sizes.mode === 'custom' ? model.sizes.max : 2048;
  const snap = (v: number) => Math.min(max, Math.max(min, Math.round(v / step) * step));
  const width = snap(Math.sqrt((area * a) / b));
  const height = snap(Math.sqrt((area * b) / a));
  return { width, height };
}

/** Why width × height is not allowed for the model (undefined when it is). */
export function sizeProblem(model: ModelEntry, width: number, height: number): string | undefined {
  if (model.sizes.mode === 'aspect-ratio') {
    const ok = model.aspectRatios.some((r) => {
      const s = sizeFor(model, r);
      return s.width === width && s.height === height;
    });
    return ok ? undefined : `${model.displayName} takes an aspect ratio: ${model.aspectRatios.join(', ')}`;
  }
  const { min, max, multipleOf } = model.sizes;
  for (const v of [width, height]) {
    if (!Number.isInteger(v) || v < min || v > max || v % multipleOf !== 0)
      return `${model.displayName} takes widths and heights that are multiples of ${multipleOf} from ${min} to ${max} pixels`;
  }
  return undefined;
}
