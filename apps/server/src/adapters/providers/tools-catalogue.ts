import type { Tool } from '@lumina/contracts';
import { AppError } from '../../errors.ts';
import type { ImageToolsProvider } from './image-tools.ts';
import type { ProviderName } from './text-to-image.ts';

/**
 * The image-tool models, as data: per tool, which vendor model runs it and what a run costs. Listed
 * hosted first, so a server with a fal.ai or Replicate key defaults to real AI and one without falls
 * back to the local engine (always available, offline).
 *
 * Costs are credits: per run for edit, copy style and product holding; per run at 2× for upscale (4×
 * costs UPSCALE_4X_MULTIPLIER times as much); per second of video for animate.
 */

export interface ToolModelEntry {
  id: string;
  tool: Tool;
  displayName: string;
  description: string;
  provider: ProviderName;
  /** The vendor's model name, passed to the adapter. */
  providerModel: string;
  creditCost: number;
}

export const UPSCALE_4X_MULTIPLIER = 2;

export const BUILT_IN_TOOL_MODELS: readonly ToolModelEntry[] = [
  // edit
  {
    id: 'fal-flux-edit',
    tool: 'edit',
    displayName: 'FLUX.1 [dev] image-to-image · fal.ai',
    description: 'Redraws your image following the prompt; strength sets how far it may move.',
    provider: 'fal',
    providerModel: 'fal-ai/flux/dev/image-to-image',
    creditCost: 4,
  },
  {
    id: 'replicate-flux-edit',
    tool: 'edit',
    displayName: 'FLUX.1 [dev] image-to-image · Replicate',
    description: 'Redraws your image following the prompt; strength sets how far it may move.',
    provider: 'replicate',
    providerModel: 'black-forest-labs/flux-dev',
    creditCost: 4,
  },
  {
    id: 'local-edit',
    tool: 'edit',
    displayName: 'Local editor',
    description:
      'Colour, tone and texture edits steered by the words of your prompt (warmer, night, vintage, sharper…). Runs offline; not a neural network.',
    provider: 'local',
    providerModel: 'local/edit',
    creditCost: 1,
  },
  // copy style
  {
    id: 'fal-flux-redux',
    tool: 'copy_style',
    displayName: 'FLUX.1 Redux · fal.ai',
    description: 'A new image carrying the look of your reference.',
    provider: 'fal',
    providerModel: 'fal-ai/flux-1/dev/redux',
    creditCost: 4,
  },
  {
    id: 'replicate-flux-redux',
    tool: 'copy_style',
    displayName: 'FLUX.1 Redux · Replicate',
    description: 'A new image carrying the look of your reference.',
    provider: 'replicate',
    providerModel: 'black-forest-labs/flux-redux-dev',
    creditCost: 4,
  },
  {
    id: 'local-style',
    tool: 'copy_style',
    displayName: 'Local style transfer',
    description:
      'Paints your description with the palette, tone and texture of the reference. Runs offline; not a neural network.',
    provider: 'local',
    providerModel: 'local/style',
    creditCost: 1,
  },
  // product holding
  {
    id: 'fal-kontext-product',
    tool: 'product_holding',
    displayName: 'FLUX.1 Kontext · fal.ai',
    description: 'Places the product in the person’s hands and blends light and pose.',
    provider: 'fal',
    providerModel: 'fal-ai/flux-kontext/dev',
    creditCost: 6,
  },
  {
    id: 'replicate-kontext-product',
    tool: 'product_holding',
    displayName: 'FLUX.1 Kontext multi-image · Replicate',
    description: 'Places the product in the person’s hands and blends light and pose.',
    provider: 'replicate',
    providerModel: 'flux-kontext-apps/multi-image-kontext-pro',
    creditCost: 6,
  },
  {
    id: 'local-product',
    tool: 'product_holding',
    displayName: 'Local compositor',
    description:
      'Cuts the product from its background and places it in front of the person at your aspect ratio. Runs offline.',
    provider: 'local',
    providerModel: 'local/product',
    creditCost: 2,
  },
  // upscale
  {
    id: 'fal-esrgan',
    tool: 'upscale',
    displayName: 'Real-ESRGAN · fal.ai',
    description: 'Sharp, detailed enlargement.',
    provider: 'fal',
    providerModel: 'fal-ai/esrgan',
    creditCost: 2,
  },
  {
    id: 'replicate-esrgan',
    tool: 'upscale',
    displayName: 'Real-ESRGAN · Replicate',
    description: 'Sharp, detailed enlargement.',
    provider: 'replicate',
    // A community model: Replicate runs those only at a pinned version (official models run by name).
    providerModel: 'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
    creditCost: 2,
  },
  {
    id: 'local-upscale',
    tool: 'upscale',
    displayName: 'Local Lanczos upscaler',
    description: 'Lanczos resampling with sharpening. Runs offline.',
    provider: 'local',
    providerModel: 'local/upscale',
    creditCost: 1,
  },
  // animate
  {
    id: 'fal-kling',
    tool: 'animate',
    displayName: 'Kling 2.1 image-to-video · fal.ai',
    description: 'Brings your image to life; the prompt directs the motion.',
    provider: 'fal',
    providerModel: 'fal-ai/kling-video/v2.1/standard/image-to-video',
    creditCost: 4,
  },
  {
    id: 'replicate-kling',
    tool: 'animate',
    displayName: 'Kling 2.1 image-to-video · Replicate',
    description: 'Brings your image to life; the prompt directs the motion.',
    provider: 'replicate',
    providerModel: 'kwaivgi/kling-v2.1',
    creditCost: 4,
  },
  {
    id: 'local-pan-zoom',
    tool: 'animate',
    displayName: 'Local pan and zoom',
    description: 'A smooth Ken Burns pan and zoom over your image as a 720p MP4. Runs offline.',
    provider: 'local',
    providerModel: 'local/pan-zoom',
    creditCost: 1,
  },
];

export interface ToolAdapters {
  local: ImageToolsProvider;
  fal?: ImageToolsProvider;
  replicate?: ImageToolsProvider;
}

const VENDOR_LABEL: Record<ProviderName, string> = {
  local: 'the local engine',
  fal: 'fal.ai',
  replicate: 'Replicate',
};

/** Tool models with their adapters; unconfigured vendors stay listed as unavailable, with the reason. */
export class ToolRegistry {
  constructor(
    private readonly models: readonly ToolModelEntry[],
    private readonly adapters: ToolAdapters,
  ) {}

  adapter(name: ProviderName): ImageToolsProvider | undefined {
    const a = this.adapters[name];
    return a?.available ? a : undefined;
  }

  list(tool: Tool) {
    return this.models
      .filter((m) => m.tool === tool)
      .map((m) => {
        const available = this.adapter(m.provider) !== undefined;
        return {
          ...m,
          available,
          unavailableReason: available
            ? null
            : `This server has no ${VENDOR_LABEL[m.provider]} key configured.`,
        };
      });
  }

  defaultModel(tool: Tool): ToolModelEntry | undefined {
    return this.models.find((m) => m.tool === tool && this.adapter(m.provider));
  }

  /** The model for a tool run (the default when none is named); a 400 for unknown or unavailable ones. */
  get(tool: Tool, id: string | undefined): { model: ToolModelEntry; provider: ImageToolsProvider } {
    const model = id ? this.models.find((m) => m.id === id && m.tool === tool) : this.defaultModel(tool);
    const choices = () =>
      this.list(tool)
        .filter((m) => m.available)
        .map((m) => m.id)
        .join(', ');
    if (!model) {
      throw new AppError(
        'VALIDATION_FAILED',
        `Unknown model "${id}" for this tool. Choose one of: ${choices()}.`,
      );
    }
    const provider = this.adapter(model.provider);
    if (!provider) {
      throw new AppError(
        'VALIDATION_FAILED',
        `${model.displayName} is unavailable: this server has no ${VENDOR_LABEL[model.provider]} key configured. Choose one of: ${choices()}.`,
      );
    }
    return { model, provider };
  }

  /** A job's model by id, whatever its tool (the worker resolves the model recorded on the job). */
  byId(id: string): { model: ToolModelEntry; provider: ImageToolsProvider } | undefined {
    const model = this.models.find((m) => m.id === id);
    const provider = model && this.adapter(model.provider);
    return model && provider ? { model, provider } : undefined;
  }
}

/** Credits for one run. */
export function toolCost(model: ToolModelEntry, params: { factor?: number; durationSeconds?: number }) {
  if (model.tool === 'upscale' && params.factor === 4) return model.creditCost * UPSCALE_4X_MULTIPLIER;
  if (model.tool === 'animate') return model.creditCost * (params.durationSeconds ?? 5);
  return model.creditCost;
}
