import type { Config } from '../../../config.ts';
import type { RunContext, RunResult, TextToImageProvider, TextToImageRequest } from '../text-to-image.ts';
import { ComfyClient, comfyOptions, type ComfyOptions } from './comfyui.client.ts';

/**
 * Text-to-image on the operator's own ComfyUI server. The catalogue entry's `providerModel` names the
 * workflow (workflows.ts); the request fills its slots: prompt, negative, seed, width, height, the
 * number of images (batch) and, for a trained model, the LoRA file and scale.
 */
export class ComfyTextToImage implements TextToImageProvider {
  readonly name = 'comfyui' as const;
  readonly available = true;
  readonly client: ComfyClient;

  constructor(options: ComfyOptions) {
    this.client = new ComfyClient(options);
  }

  async run(request: TextToImageRequest, ctx: RunContext): Promise<RunResult> {
    const out = await this.client.run(
      {
        workflow: request.providerModel,
        values: {
          prompt: request.prompt,
          negative: request.negativePrompt ?? '',
          seed: request.seed,
          width: request.width,
          height: request.height,
          batch: request.numImages,
          ...(request.lora ? {} : request.loraScale !== undefined ? { lora_scale: request.loraScale } : {}),
          ...(request.promptStrength !== undefined ? { strength: request.promptStrength } : {}),
        },
        lora: request.lora,
      },
      ctx,
    );
    return { images: out.images, seed: request.seed, requestId: out.requestId };
  }

  cancel(requestId: string): Promise<boolean> {
    return this.client.cancel(requestId);
  }
}

/** The ComfyUI text-to-image adapter from config, or undefined when COMFYUI_URL is unset. */
export function createComfyTextToImage(
  config: Pick<Config, 'providers'>,
  overrides?: Parameters<typeof comfyOptions>[1],
): ComfyTextToImage | undefined {
  const options = comfyOptions(config, overrides);
  return options && new ComfyTextToImage(options);
}
