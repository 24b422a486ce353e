import type { Config } from '../../../config.ts';
import type { ImageToolsProvider, ToolRequest, ToolResult } from '../image-tools.ts';
import { ProviderError, type RunContext } from '../text-to-image.ts';
import { ComfyClient, comfyOptions, type ComfyOptions, type ComfySubmission } from './comfyui.client.ts';

/**
 * The image tools that have a ComfyUI workflow: edit (image-to-image), upscale and copy style (an
 * image-to-image workflow fed the reference and the description). Animate and product holding have
 * no workflow: a catalogue entry for them is refused at boot (REQUIRED_SLOTS), and a request here too.
 */
export class ComfyImageTools implements ImageToolsProvider {
  readonly name = 'comfyui' as const;
  readonly available = true;
  readonly client: ComfyClient;

  constructor(options: ComfyOptions) {
    this.client = new ComfyClient(options);
  }

  async run(request: ToolRequest, ctx: RunContext): Promise<ToolResult> {
    const out = await this.client.run(submission(request), ctx);
    return { kind: 'images', images: out.images, seed: request.seed, requestId: out.requestId };
  }

  cancel(requestId: string): Promise<boolean> {
    return this.client.cancel(requestId);
  }
}

function submission(request: ToolRequest): ComfySubmission {
  const workflow = request.providerModel;
  switch (request.tool) {
    case 'edit':
      return {
        workflow,
        values: {
          prompt: request.prompt,
          negative: request.negativePrompt ?? '',
          strength: request.strength,
          seed: request.seed,
        },
        images: { image: request.image },
      };
    case 'upscale':
      return {
        workflow,
        values: { factor: request.factor, seed: request.seed },
        images: { image: request.image },
      };
    case 'copy_style':
      return {
        workflow,
        values: { prompt: request.description, seed: request.seed },
        images: { image: request.style },
      };
    default:
      throw new ProviderError(
        `ComfyUI: no workflow for ${request.tool}`,
        'rejected',
        'This tool is not available on the ComfyUI server.',
      );
  }
}

/** The ComfyUI image-tools adapter from config, or undefined when COMFYUI_URL is unset. */
export function createComfyImageTools(
  config: Pick<Config, 'providers'>,
  overrides?: Parameters<typeof comfyOptions>[1],
): ComfyImageTools | undefined {
  const options = comfyOptions(config, overrides);
  return options && new ComfyImageTools(options);
}
