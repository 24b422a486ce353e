import type { Config } from '../../../config.ts';
import { decodeBase64Images, TRANSIENT_MESSAGE } from '../hosted.ts';
import { ProviderError } from '../text-to-image.ts';
import type { ImageToolsProvider, InputImage, ToolRequest, ToolResult } from '../image-tools.ts';
import type { RunContext } from '../text-to-image.ts';
import { a1111Options, imagesOf, type A1111ImagesResponse, type A1111Overrides } from './a1111.api.ts';
import { A1111Adapter, A1111_SAMPLING, checkpoint } from './a1111.text-to-image.ts';

/**
 * The image tools AUTOMATIC1111 / Forge can run, each one blocking call (a1111.api.ts):
 * - edit: `POST /sdapi/v1/img2img` with the image in `init_images` and our strength as
 *   `denoising_strength` (0 keeps the original, 1 replaces it), on the entry's checkpoint;
 * - upscale: `POST /sdapi/v1/extra-single-image` with the entry's `providerModel` as the upscaler
 *   (`R-ESRGAN 4x+`…) and our factor as `upscaling_resize`.
 * The other tools need models A1111 does not have (image-to-video, multi-image composition, Redux), so
 * the catalogue offers none on it and a request for one is refused.
 */
export class A1111ImageTools extends A1111Adapter implements ImageToolsProvider {
  async run(request: ToolRequest, ctx: RunContext): Promise<ToolResult> {
    switch (request.tool) {
      case 'edit': {
        const size = workingSize(request.image);
        const { taskId, answer } = await this.api.run<A1111ImagesResponse>(
          '/sdapi/v1/img2img',
          {
            init_images: [base64(request.image)],
            denoising_strength: request.strength,
            prompt: request.prompt,
            negative_prompt: request.negativePrompt ?? '',
            seed: request.seed,
            ...size,
            // 0: resize the input to width × height (same aspect ratio, so nothing is cropped).
            resize_mode: 0,
            batch_size: 1,
            n_iter: 1,
            ...A1111_SAMPLING,
            ...checkpoint(request.providerModel),
            send_images: true,
            save_images: false,
          },
          ctx,
        );
        return { kind: 'images', ...(await imagesOf(answer, 1, request.seed)), requestId: taskId };
      }
      case 'upscale': {
        const { taskId, answer } = await this.api.run<{ image?: string }>(
          '/sdapi/v1/extra-single-image',
          {
            image: base64(request.image),
            resize_mode: 0,
            upscaling_resize: request.factor,
            upscaler_1: request.providerModel,
            show_extras_results: true,
          },
          ctx,
        );
        if (!answer.image) {
          throw new ProviderError(
            'a1111: extra-single-image answered no image',
            'transient',
            TRANSIENT_MESSAGE,
          );
        }
        return {
          kind: 'images',
          images: await decodeBase64Images([answer.image], 'a1111'),
          seed: request.seed,
          requestId: taskId,
        };
      }
      default:
        throw new ProviderError(
          `a1111 cannot run ${request.tool}`,
          'rejected',
          'This tool is not available on the AUTOMATIC1111 server. Choose another model.',
        );
    }
  }
}

const base64 = (image: InputImage) => image.bytes.toString('base64');

/**
 * The size img2img works at: the input's aspect ratio at no more than about a megapixel (SDXL's native
 * area; larger inputs only cost time and memory), in multiples of 8 as the latent space needs.
 */
export function workingSize(image: { width: number; height: number }): { width: number; height: number } {
  const scale = Math.min(1, Math.sqrt((1024 * 1024) / (image.width * image.height)));
  const snap = (v: number) => Math.max(64, Math.round((v * scale) / 8) * 8);
  return { width: snap(image.width), height: snap(image.height) };
}

/** The A1111 image-tools adapter from config, or undefined when `A1111_URL` is unset. */
export function createA1111ImageTools(config: Pick<Config, 'providers'>, overrides?: A1111Overrides) {
  const options = a1111Options(config, overrides);
  return options && new A1111ImageTools(options);
}
