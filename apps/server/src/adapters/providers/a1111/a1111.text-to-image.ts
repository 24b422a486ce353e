import type { Config } from '../../../config.ts';
import type { RunContext, RunResult, TextToImageProvider, TextToImageRequest } from '../text-to-image.ts';
import {
  A1111Api,
  a1111Options,
  imagesOf,
  type A1111ImagesResponse,
  type A1111Options,
  type A1111Overrides,
} from './a1111.api.ts';

/**
 * AUTOMATIC1111 / Forge text-to-image: one blocking `POST /sdapi/v1/txt2img` (see a1111.api.ts for
 * progress, previews, cancel and why nothing is resumed). The catalogue entry's `providerModel` is the
 * checkpoint, set per request through `override_settings.sd_model_checkpoint` and restored afterwards,
 * so the server's own default model is left as the operator chose it.
 */

/** Sampling settings every request uses; SDXL and SD 1.5 checkpoints both do well with them. */
export const A1111_SAMPLING = { steps: 28, cfg_scale: 7 } as const;

/** Both A1111 adapters (text-to-image, image tools) over one server connection. */
export abstract class A1111Adapter {
  readonly name = 'a1111' as const;
  readonly available = true;
  protected readonly api: A1111Api;

  constructor(options: A1111Options | A1111Api) {
    this.api = options instanceof A1111Api ? options : new A1111Api(options);
  }

  cancel(requestId: string): Promise<boolean> {
    return this.api.cancel(requestId);
  }
}

export class A1111TextToImage extends A1111Adapter implements TextToImageProvider {
  async run(request: TextToImageRequest, ctx: RunContext): Promise<RunResult> {
    const { taskId, answer } = await this.api.run<A1111ImagesResponse>(
      '/sdapi/v1/txt2img',
      toTxt2ImgBody(request),
      ctx,
    );
    return { ...(await imagesOf(answer, request.numImages, request.seed)), requestId: taskId };
  }
}

/** Our request → the txt2img body. */
export function toTxt2ImgBody(request: TextToImageRequest): Record<string, unknown> {
  return {
    prompt: withLora(request.prompt, request.lora),
    negative_prompt: request.negativePrompt ?? '',
    seed: request.seed,
    width: request.width,
    height: request.height,
    batch_size: request.numImages,
    n_iter: 1,
    ...A1111_SAMPLING,
    ...checkpoint(request.providerModel),
    send_images: true,
    save_images: false,
  };
}

/** The checkpoint override (left out for `default`, which keeps whatever the server has loaded). */
export function checkpoint(providerModel: string): Record<string, unknown> {
  if (providerModel === 'default') return {};
  return {
    override_settings: { sd_model_checkpoint: providerModel },
    override_settings_restore_afterwards: true,
  };
}

/**
 * A LoRA goes into the prompt as `<lora:name:scale>`, `name` being a file in the server's `models/Lora`
 * folder: a URL's file name without its extension, or the name itself.
 */
export function withLora(prompt: string, lora: { url: string; scale: number } | undefined): string {
  if (!lora) return prompt;
  let name = lora.url;
  try {
    name = decodeURIComponent(new URL(lora.url).pathname.split('/').pop() ?? '');
  } catch {
    // Not a URL: the name of a LoRA the server already has.
  }
  name = name.replace(/\.(safetensors|ckpt|pt)$/i, '').replace(/[<>:]/g, '');
  if (!name) return prompt;
  return `${prompt} <lora:${name}:${Math.round(lora.scale * 100) / 100}>`;
}

/** The A1111 text-to-image adapter from config, or undefined when `A1111_URL` is unset. */
export function createA1111TextToImage(config: Pick<Config, 'providers'>, overrides?: A1111Overrides) {
  const options = a1111Options(config, overrides);
  return options && new A1111TextToImage(options);
}
