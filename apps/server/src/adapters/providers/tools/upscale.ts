import { inputFile } from '../hosted.ts';
import type { InputImage } from '../image-tools.ts';
import { upscaleImage } from '../local/tools/upscale.ts';
import type { AdapterTool, ToolRequestCommon } from './adapter-tool.ts';

/** Upscale: the image at 2 or 4 times its size. */
export interface UpscaleRequest extends ToolRequestCommon {
  tool: 'upscale';
  image: InputImage;
  factor: 2 | 4;
}

export const upscale: AdapterTool<UpscaleRequest, 'images'> = {
  output: 'images',
  localModel: 'local/upscale',
  // fal-ai/esrgan: ESRGAN's default model (RealESRGAN_x4plus) with `scale` 2 or 4; the output is `{image}`.
  fal: (request) => ({
    image_url: inputFile(request.image, 'image'),
    scale: request.factor,
    output_format: 'png',
  }),
  // nightmareai/real-esrgan.
  replicate: (request) => ({
    image: inputFile(request.image, 'image'),
    scale: request.factor,
    face_enhance: false,
  }),
  local: (request, { run }) => upscaleImage(request, run),
};
