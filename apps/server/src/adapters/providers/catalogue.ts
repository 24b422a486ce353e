import { readFileSync } from 'node:fs';
import { TOOLS } from '@lumina/contracts';
import { z } from 'zod';
import { LOCAL_MODEL_NAMES } from './local/presets.ts';
import { LOCAL_TOOL_MODELS } from './local/tools/local-tool-models.ts';
import { vendorCannotRun } from './vendors.ts';

/**
 * The model catalogue, as data: which models people can pick for each capability (text-to-image and
 * each image tool), which provider runs each, what each supports and costs. A built-in list serves
 * the product offline and with fal.ai / Replicate keys; operators adjust it without code through
 * MODELS_JSON (inline JSON) or MODELS_FILE (a JSON file), validated at boot (see config.ts).
 *
 * Override format: a JSON array of models. An entry whose id matches a built-in model is merged over
 * it (`[{"id":"flux-dev","creditCost":6}]`); `{"id":"sdxl","remove":true}` drops one; any other id
 * must be a complete model, whose `capability` says what it does (`text-to-image` when left out).
 * `{"replace":true,"models":[…]}` replaces the built-in models of every capability the list names.
 */

/** What a model does: make images from text, one of the image tools, or train a model of your own. */
export const CAPABILITIES = ['text-to-image', ...TOOLS, 'train'] as const;
export type Capability = (typeof CAPABILITIES)[number];
export type ToolCapability = (typeof TOOLS)[number];
export const PROVIDERS = ['local', 'fal', 'replicate', 'comfyui', 'a1111', 'openai'] as const;

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

/** The fields every model has, whatever its capability. */
const common = {
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'model ids are 2-63 lowercase letters, digits and dashes'),
  displayName: z.string().trim().min(1).max(80),
  description: z.string().max(400).default(''),
  provider: z.enum(PROVIDERS, { error: `provider must be one of ${PROVIDERS.join(', ')}` }),
  /** The vendor's model name: `local/aurora`, `fal-ai/flux/dev`, `black-forest-labs/flux-schnell`… */
  providerModel: z.string().min(1),
  /**
   * Credits: per image for text-to-image; per run for edit, copy style and product holding; per run
   * at 2× for upscale (4× costs UPSCALE_4X_MULTIPLIER times as much); per second of video for animate;
   * per 1000 training steps for train.
   */
  creditCost: int('creditCost').min(0).max(10_000),
  /**
   * Failover: the same model on other vendors, tried in order when the one before fails for a while
   * or does not answer in time (`[{"provider":"replicate","providerModel":"black-forest-labs/flux-dev"}]`).
   * The price stays this entry's: a person pays once, whichever vendor makes the output. An alternate
   * whose vendor is not configured on this server is skipped.
   */
  alternates: z
    .array(
      z.object({
        provider: z.enum(PROVIDERS, { error: `alternates' provider must be one of ${PROVIDERS.join(', ')}` }),
        providerModel: z.string().min(1, 'an alternate needs its providerModel'),
      }),
    )
    .max(5, 'at most 5 alternates')
    .default([]),
};

/**
 * A model entry's vendor and its alternates are distinct vendors (one turn each), and each can run the
 * entry's capability (a failover must never reach a vendor that refuses the work).
 */
function checkAlternates(
  m: {
    capability: Capability;
    provider: (typeof PROVIDERS)[number];
    alternates: { provider: (typeof PROVIDERS)[number]; providerModel: string }[];
  },
  ctx: z.RefinementCtx,
  localModels: readonly string[],
) {
  const cannot = vendorCannotRun(m.provider, m.capability);
  if (cannot) ctx.addIssue({ code: 'custom', path: ['provider'], message: cannot });
  const seen = new Set<string>([m.provider]);
  for (const [i, alt] of m.alternates.entries()) {
    const altCannot = vendorCannotRun(alt.provider, m.capability);
    if (altCannot) ctx.addIssue({ code: 'custom', path: ['alternates', i, 'provider'], message: altCannot });
    if (seen.has(alt.provider)) {
      ctx.addIssue({
        code: 'custom',
        path: ['alternates', i, 'provider'],
        message: `${alt.provider} is already this model's vendor or an earlier alternate`,
      });
    }
    seen.add(alt.provider);
    if (alt.provider === 'local' && !localModels.includes(alt.providerModel)) {
      ctx.addIssue({
        code: 'custom',
        path: ['alternates', i, 'providerModel'],
        message: `a local alternate is one of ${localModels.join(', ')}`,
      });
    }
  }
}

export const TextToImageEntrySchema = z
  .object({
    ...common,
    capability: z.literal('text-to-image'),
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
    /** Whether a trained model (LoRA / local style) can be applied. */
    acceptsLora: z.boolean(),
  })
  .superRefine((m, ctx) => {
    checkAlternates(m, ctx, LOCAL_MODEL_NAMES);
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

/** An image tool's model: the common fields only; the tool's own options live in its contract. */
export const ToolEntrySchema = z
  .object({
    ...common,
    capability: z.enum(TOOLS, { error: `capability must be one of ${CAPABILITIES.join(', ')}` }),
  })
  .superRefine((m, ctx) => {
    const local = LOCAL_TOOL_MODELS[m.capability];
    checkAlternates(m, ctx, [local]);
    if (m.provider === 'local' && m.providerModel !== local) {
      ctx.addIssue({
        code: 'custom',
        path: ['providerModel'],
        message: `the local ${m.capability} model is ${local}`,
      });
    }
  });

/** The local trainer's vendor model name (it learns a style profile; no neural network). */
export const LOCAL_TRAINER_MODEL = 'local/style-trainer';

/**
 * A trainer: it extends one text-to-image model (`baseModelId`, whose sizes and price per image the
 * trained model keeps) and trains for a number of steps within bounds the form offers.
 */
export const TrainEntrySchema = z
  .object({
    ...common,
    capability: z.literal('train'),
    baseModelId: z.string().min(1, 'a train model names the text-to-image model it extends (baseModelId)'),
    steps: z.object({
      min: int('steps.min').min(1),
      max: int('steps.max').max(100_000),
      default: int('steps.default'),
    }),
  })
  .superRefine((m, ctx) => {
    const cannot = vendorCannotRun(m.provider, m.capability);
    if (cannot) ctx.addIssue({ code: 'custom', path: ['provider'], message: cannot });
    if (m.alternates.length > 0) {
      // A training runs for up to hours and its weights live at the vendor that made them.
      ctx.addIssue({ code: 'custom', path: ['alternates'], message: 'a trainer has no alternates' });
    }
    if (m.provider === 'local' && m.providerModel !== LOCAL_TRAINER_MODEL) {
      ctx.addIssue({
        code: 'custom',
        path: ['providerModel'],
        message: `the local trainer is ${LOCAL_TRAINER_MODEL}`,
      });
    }
    const { min, max, default: preset } = m.steps;
    if (min > max || preset < min || preset > max) {
      ctx.addIssue({ code: 'custom', path: ['steps'], message: 'needs min ≤ default ≤ max' });
    }
  });

export type TextToImageModel = z.output<typeof TextToImageEntrySchema>;
export type ToolModel = z.output<typeof ToolEntrySchema>;
export type TrainModel = z.output<typeof TrainEntrySchema>;
/** One catalogue entry; `capability` tells the kinds apart. */
export type ModelEntry = TextToImageModel | ToolModel | TrainModel;
/** The entry type of a capability. */
export type ModelOf<C extends Capability> = C extends 'text-to-image'
  ? TextToImageModel
  : C extends 'train'
    ? TrainModel
    : ToolModel;
export type ModelSupports = TextToImageModel['supports'];

/**
 * Validates one entry with its capability's schema. An entry without `capability` is text-to-image,
 * as every entry was before the image tools joined the catalogue (older MODELS_JSON files keep working).
 */
export function parseModelEntry(raw: Record<string, unknown>) {
  const capability = raw.capability ?? 'text-to-image';
  if (capability === 'text-to-image') return TextToImageEntrySchema.safeParse({ ...raw, capability });
  return capability === 'train' ? TrainEntrySchema.safeParse(raw) : ToolEntrySchema.safeParse(raw);
}

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
/** The SDXL base checkpoint's file name in an AUTOMATIC1111 / Forge `models/Stable-diffusion` folder. */
const A1111_SDXL_CHECKPOINT = 'sd_xl_base_1.0.safetensors';
const LOCAL_SIZES = { mode: 'custom', min: 256, max: 2048, multipleOf: 8 } as const;

const textToImage = (m: Omit<z.input<typeof TextToImageEntrySchema>, 'capability'>): TextToImageModel =>
  TextToImageEntrySchema.parse({ ...m, capability: 'text-to-image' });
const tool = (m: z.input<typeof ToolEntrySchema>): ToolModel => ToolEntrySchema.parse(m);
const trainer = (m: Omit<z.input<typeof TrainEntrySchema>, 'capability'>): TrainModel =>
  TrainEntrySchema.parse({ ...m, capability: 'train' });

type TextToImageInput = Omit<z.input<typeof TextToImageEntrySchema>, 'capability'>;
/** FLUX as fal.ai and Replicate host it: a seed and up to 4 images, no negative prompt. */
const FLUX_SUPPORTS = {
  negativePrompt: false,
  seed: true,
  loraScale: false,
  promptStrength: false,
  maxImages: 4,
};
/** fal.ai takes pixel sizes; Replicate's FLUX takes aspect ratios only. */
const HOSTED_SIZING = {
  fal: {
    defaultSize: { width: 1024, height: 768 },
    sizes: { mode: 'custom', min: 256, max: 2048, multipleOf: 16 },
    aspectRatios: SQUARE_AND_COMMON,
  },
  replicate: {
    defaultSize: { width: 1024, height: 1024 },
    sizes: { mode: 'aspect-ratio' },
    aspectRatios: REPLICATE_FLUX_RATIOS,
  },
} as const;
/** A hosted FLUX text-to-image model: its vendor's sizing and FLUX's supports unless `m` says otherwise. */
const hostedFlux = (
  m: Pick<TextToImageInput, 'id' | 'displayName' | 'description' | 'providerModel' | 'creditCost'> &
    Partial<TextToImageInput> & { provider: 'fal' | 'replicate' },
): TextToImageModel =>
  textToImage({ ...HOSTED_SIZING[m.provider], supports: FLUX_SUPPORTS, acceptsLora: false, ...m });

/**
 * A tool both fal.ai and Replicate host: one description and price, each vendor's own id, name and
 * model. The fal.ai entry comes first.
 */
const hostedTool = (
  capability: ToolCapability,
  shared: { description: string; creditCost: number },
  fal: { id: string; displayName: string; providerModel: string },
  replicate: { id: string; displayName: string; providerModel: string },
): ToolModel[] => [
  tool({ capability, ...shared, provider: 'fal', ...fal }),
  tool({ capability, ...shared, provider: 'replicate', ...replicate }),
];

/**
 * The built-in catalogue. Text-to-image: local models first; they always work, offline, and are the
 * default.
 */
export const BUILT_IN_MODELS: readonly ModelEntry[] = [
  textToImage({
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
  textToImage({
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
  hostedFlux({
    id: 'flux-schnell',
    displayName: 'FLUX.1 [schnell] (fal.ai)',
    description: 'Fast FLUX text-to-image in 1 to 4 steps, hosted by fal.ai.',
    provider: 'fal',
    providerModel: 'fal-ai/flux/schnell',
    creditCost: 2,
  }),
  hostedFlux({
    id: 'flux-dev',
    displayName: 'FLUX.1 [dev] (fal.ai)',
    description: 'High-quality FLUX text-to-image (28 steps), hosted by fal.ai.',
    provider: 'fal',
    providerModel: 'fal-ai/flux/dev',
    creditCost: 5,
  }),
  hostedFlux({
    id: 'flux-lora',
    displayName: 'FLUX.1 [dev] with LoRA (fal.ai)',
    description:
      'FLUX [dev] that applies a trained model (LoRA) at the strength you choose, hosted by fal.ai.',
    provider: 'fal',
    providerModel: 'fal-ai/flux-lora',
    defaultSize: { width: 1024, height: 1024 },
    supports: { ...FLUX_SUPPORTS, loraScale: true },
    creditCost: 6,
    acceptsLora: true,
  }),
  hostedFlux({
    id: 'flux-schnell-replicate',
    displayName: 'FLUX.1 [schnell] (Replicate)',
    description: 'Fast FLUX text-to-image, hosted by Replicate. Sizes are chosen by aspect ratio.',
    provider: 'replicate',
    providerModel: 'black-forest-labs/flux-schnell',
    creditCost: 2,
  }),
  hostedFlux({
    id: 'flux-dev-replicate',
    displayName: 'FLUX.1 [dev] (Replicate)',
    description: 'High-quality FLUX text-to-image, hosted by Replicate. Sizes are chosen by aspect ratio.',
    provider: 'replicate',
    providerModel: 'black-forest-labs/flux-dev',
    creditCost: 5,
  }),
  textToImage({
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
  // The operator's own GPU: ComfyUI runs the workflow the entry names (comfyui/workflows/<name>.json).
  textToImage({
    id: 'comfyui-sdxl',
    displayName: 'Stable Diffusion XL (own GPU, ComfyUI)',
    description: 'SDXL 1.0 with negative prompts, run on this service’s own ComfyUI server.',
    provider: 'comfyui',
    providerModel: 'sdxl-txt2img',
    defaultSize: { width: 1024, height: 1024 },
    sizes: { mode: 'custom', min: 512, max: 1536, multipleOf: 8 },
    aspectRatios: SQUARE_AND_COMMON,
    supports: { negativePrompt: true, seed: true, loraScale: false, promptStrength: false, maxImages: 4 },
    creditCost: 2,
    acceptsLora: false,
  }),
  // The operator's own AUTOMATIC1111 / Forge server (A1111_URL): providerModel is the checkpoint's name
  // there, as /sdapi/v1/sd-models lists it.
  textToImage({
    id: 'sdxl-a1111',
    displayName: 'Stable Diffusion XL (your AUTOMATIC1111 server)',
    description:
      'SDXL 1.0 on this service’s own GPU server (AUTOMATIC1111 or Forge), with negative prompts and live previews.',
    provider: 'a1111',
    providerModel: A1111_SDXL_CHECKPOINT,
    defaultSize: { width: 1024, height: 1024 },
    sizes: { mode: 'custom', min: 512, max: 2048, multipleOf: 8 },
    aspectRatios: SQUARE_AND_COMMON,
    supports: { negativePrompt: true, seed: true, loraScale: false, promptStrength: false, maxImages: 4 },
    creditCost: 1,
    acceptsLora: false,
  }),
  // OpenAI Images: gpt-image makes 1024×1024, 1536×1024 or 1024×1536 only, so it offers those three
  // ratios (the adapter sends the size of the ratio asked for); it takes no seed and no negative prompt.
  textToImage({
    id: 'gpt-image-1',
    displayName: 'GPT Image 1 (OpenAI)',
    description:
      'OpenAI’s image model: follows long instructions and renders text well. Square, landscape 3:2 or portrait 2:3.',
    provider: 'openai',
    providerModel: 'gpt-image-1',
    defaultSize: { width: 1024, height: 1024 },
    sizes: { mode: 'aspect-ratio' },
    aspectRatios: ['1:1', '3:2', '2:3'],
    supports: { negativePrompt: false, seed: false, loraScale: false, promptStrength: false, maxImages: 4 },
    creditCost: 8,
    acceptsLora: false,
  }),
  // Image tools, per tool hosted first: a server with a fal.ai or Replicate key defaults to real AI
  // and one without falls back to the local engine (always available, offline).
  // edit
  ...hostedTool(
    'edit',
    {
      description: 'Redraws your image following the prompt; strength sets how far it may move.',
      creditCost: 4,
    },
    {
      id: 'fal-flux-edit',
      displayName: 'FLUX.1 [dev] image-to-image · fal.ai',
      providerModel: 'fal-ai/flux/dev/image-to-image',
    },
    {
      id: 'replicate-flux-edit',
      displayName: 'FLUX.1 [dev] image-to-image · Replicate',
      providerModel: 'black-forest-labs/flux-dev',
    },
  ),
  tool({
    id: 'comfyui-sdxl-edit',
    capability: 'edit',
    displayName: 'SDXL image-to-image · own GPU (ComfyUI)',
    description: 'Redraws your image following the prompt on this service’s own ComfyUI server.',
    provider: 'comfyui',
    providerModel: 'sdxl-img2img',
    creditCost: 3,
  }),
  tool({
    id: 'a1111-sdxl-edit',
    capability: 'edit',
    displayName: 'SDXL image-to-image · your AUTOMATIC1111 server',
    description:
      'Redraws your image following the prompt on this service’s own GPU; strength sets how far it may move.',
    provider: 'a1111',
    providerModel: A1111_SDXL_CHECKPOINT,
    creditCost: 1,
  }),
  tool({
    id: 'openai-gpt-image-edit',
    capability: 'edit',
    displayName: 'GPT Image 1 edit · OpenAI',
    description: 'Changes your image as the prompt instructs (strength does not apply).',
    provider: 'openai',
    providerModel: 'gpt-image-1',
    creditCost: 8,
  }),
  tool({
    id: 'local-edit',
    capability: 'edit',
    displayName: 'Local editor',
    description:
      'Colour, tone and texture edits steered by the words of your prompt (warmer, night, vintage, sharper…). Runs offline; not a neural network.',
    provider: 'local',
    providerModel: 'local/edit',
    creditCost: 1,
  }),
  // copy style
  ...hostedTool(
    'copy_style',
    { description: 'A new image carrying the look of your reference.', creditCost: 4 },
    { id: 'fal-flux-redux', displayName: 'FLUX.1 Redux · fal.ai', providerModel: 'fal-ai/flux-1/dev/redux' },
    {
      id: 'replicate-flux-redux',
      displayName: 'FLUX.1 Redux · Replicate',
      providerModel: 'black-forest-labs/flux-redux-dev',
    },
  ),
  tool({
    id: 'local-style',
    capability: 'copy_style',
    displayName: 'Local style transfer',
    description:
      'Paints your description with the palette, tone and texture of the reference. Runs offline; not a neural network.',
    provider: 'local',
    providerModel: 'local/style',
    creditCost: 1,
  }),
  // product holding
  ...hostedTool(
    'product_holding',
    { description: 'Places the product in the person’s hands and blends light and pose.', creditCost: 6 },
    {
      id: 'fal-kontext-product',
      displayName: 'FLUX.1 Kontext · fal.ai',
      providerModel: 'fal-ai/flux-kontext/dev',
    },
    {
      id: 'replicate-kontext-product',
      displayName: 'FLUX.1 Kontext multi-image · Replicate',
      providerModel: 'flux-kontext-apps/multi-image-kontext-pro',
    },
  ),
  tool({
    id: 'local-product',
    capability: 'product_holding',
    displayName: 'Local compositor',
    description:
      'Cuts the product from its background and places it in front of the person at your aspect ratio. Runs offline.',
    provider: 'local',
    providerModel: 'local/product',
    creditCost: 2,
  }),
  // upscale
  ...hostedTool(
    'upscale',
    { description: 'Sharp, detailed enlargement.', creditCost: 2 },
    { id: 'fal-esrgan', displayName: 'Real-ESRGAN · fal.ai', providerModel: 'fal-ai/esrgan' },
    {
      id: 'replicate-esrgan',
      displayName: 'Real-ESRGAN · Replicate',
      // A community model: Replicate runs those only at a pinned version (official models run by name).
      providerModel:
        'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
    },
  ),
  tool({
    id: 'comfyui-esrgan',
    capability: 'upscale',
    displayName: 'Real-ESRGAN · own GPU (ComfyUI)',
    description: 'Sharp, detailed enlargement on this service’s own ComfyUI server.',
    provider: 'comfyui',
    providerModel: 'esrgan-upscale',
    creditCost: 1,
  }),
  tool({
    id: 'a1111-esrgan',
    capability: 'upscale',
    displayName: 'R-ESRGAN 4x+ · your AUTOMATIC1111 server',
    description: 'Sharp, detailed enlargement on this service’s own GPU.',
    provider: 'a1111',
    // The upscaler's name as /sdapi/v1/upscalers lists it.
    providerModel: 'R-ESRGAN 4x+',
    creditCost: 1,
  }),
  tool({
    id: 'local-upscale',
    capability: 'upscale',
    displayName: 'Local Lanczos upscaler',
    description: 'Lanczos resampling with sharpening. Runs offline.',
    provider: 'local',
    providerModel: 'local/upscale',
    creditCost: 1,
  }),
  // animate
  ...hostedTool(
    'animate',
    { description: 'Brings your image to life; the prompt directs the motion.', creditCost: 4 },
    {
      id: 'fal-kling',
      displayName: 'Kling 2.1 image-to-video · fal.ai',
      providerModel: 'fal-ai/kling-video/v2.1/standard/image-to-video',
    },
    {
      id: 'replicate-kling',
      displayName: 'Kling 2.1 image-to-video · Replicate',
      providerModel: 'kwaivgi/kling-v2.1',
    },
  ),
  tool({
    id: 'local-pan-zoom',
    capability: 'animate',
    displayName: 'Local pan and zoom',
    description: 'A smooth Ken Burns pan and zoom over your image as a 720p MP4. Runs offline.',
    provider: 'local',
    providerModel: 'local/pan-zoom',
    creditCost: 1,
  }),
  // train: the local trainer first (offline, the default), then the hosted LoRA trainers.
  trainer({
    // Not `local-style`: that id is the local copy-style tool's, and ids are unique across capabilities.
    id: 'local-style-trainer',
    displayName: 'Local style trainer',
    description:
      'Learns the palette, tone and texture of your photos into a style the local engine paints with. ' +
      'Runs offline on this server; this is not AI training and it does not learn a likeness.',
    provider: 'local',
    providerModel: LOCAL_TRAINER_MODEL,
    baseModelId: 'local-aurora',
    // Measuring a palette, tone curve and texture has no steps to add: one price, no slider.
    steps: { min: 500, max: 500, default: 500 },
    creditCost: 10,
  }),
  trainer({
    id: 'flux-lora-fast',
    displayName: 'FLUX LoRA fast training (fal.ai)',
    description: 'Trains a FLUX [dev] LoRA on your photos, hosted by fal.ai.',
    provider: 'fal',
    providerModel: 'fal-ai/flux-lora-fast-training',
    baseModelId: 'flux-dev',
    steps: { min: 250, max: 4000, default: 1000 },
    creditCost: 80,
  }),
  trainer({
    id: 'flux-dev-lora-replicate',
    displayName: 'FLUX [dev] LoRA trainer (Replicate)',
    description: 'Trains a FLUX [dev] LoRA on your photos with ostris/flux-dev-lora-trainer on Replicate.',
    provider: 'replicate',
    // Community models run at a pinned version; this is the trainer's published version.
    providerModel:
      'ostris/flux-dev-lora-trainer:e440909d3512c31646ee2e0c7d6f6f4923224863a6a10c494606e79fb5844497',
    baseModelId: 'flux-dev-replicate',
    steps: { min: 250, max: 4000, default: 1000 },
    creditCost: 100,
  }),
];

/** The text-to-image model used when a request names none (a tool's default is its first available model). */
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
  if (replace && patches.length === 0) throw new CatalogueError('leaves no models; keep at least one');
  const builtIn = new Map(BUILT_IN_MODELS.map((m) => [m.id, m]));
  // A replacing list replaces only the capabilities it names, so a list of text-to-image models
  // (all such lists predate the tools) leaves the tools' built-in models in place.
  const replaced = new Set(
    replace ? patches.map((p) => p.capability ?? builtIn.get(p.id)?.capability ?? 'text-to-image') : [],
  );
  const byId = new Map<string, Record<string, unknown>>(
    BUILT_IN_MODELS.filter((m) => !replaced.has(m.capability)).map((m) => [
      m.id,
      m as unknown as Record<string, unknown>,
    ]),
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
    const result = parseModelEntry(merged);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      const at = issue.path.length ? `.${issue.path.join('.')}` : '';
      throw new CatalogueError(`models[${index}] ("${patch.id}")${at}: ${issue.message}`);
    }
    byId.set(patch.id, result.data as unknown as Record<string, unknown>);
  }
  const listed = [...byId.values()] as unknown as ModelEntry[];
  const hasBase = (m: TrainModel) => {
    const base = listed.find((b) => b.id === m.baseModelId);
    return base?.capability === 'text-to-image' && base.provider === m.provider;
  };
  for (const [index, patch] of patches.entries()) {
    const m = byId.get(patch.id) as ModelEntry | undefined;
    if (m?.capability === 'train' && !hasBase(m)) {
      throw new CatalogueError(
        `models[${index}] ("${m.id}").baseModelId: "${m.baseModelId}" is not a ${m.provider} text-to-image model`,
      );
    }
  }
  // A built-in trainer whose base model the override removed has nothing to train for: it goes too.
  const models = listed.filter((m) => m.capability !== 'train' || hasBase(m));
  // Training is optional (an operator may offer none); every other capability keeps a model.
  const empty = CAPABILITIES.find((c) => c !== 'train' && !models.some((m) => m.capability === c));
  if (empty) throw new CatalogueError(`leaves no ${empty} models; keep at least one`);
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
export function sizeFor(model: TextToImageModel, aspectRatio: string): { width: number; height: number } {
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
export function sizeProblem(model: TextToImageModel, width: number, height: number): string | undefined {
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
