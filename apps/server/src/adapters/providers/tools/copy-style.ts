import { falCommon, sizeNearOneMegapixel } from '../fal/fal.tool-inputs.ts';
import { inputFile } from '../hosted.ts';
import type { InputImage } from '../image-tools.ts';
import { copyStyle as copyStyleLocally } from '../local/tools/style.ts';
import { nearestAspectRatio } from '../replicate/replicate.text-to-image.ts';
import type { AdapterTool, ToolRequestCommon } from './adapter-tool.ts';

/** Copy style: a new picture in the style (palette, tone, texture) of a reference image. */
export interface CopyStyleRequest extends ToolRequestCommon {
  tool: 'copy_style';
  /** The image whose style (palette, tone, texture) to copy. */
  style: InputImage;
  /** What the new picture shows. */
  description: string;
}

export const copyStyle: AdapterTool<CopyStyleRequest, 'images'> = {
  output: 'images',
  localModel: 'local/style',
  // fal-ai/flux-1/dev/redux. FLUX.1 Redux [dev] takes no prompt (fal's typings: image_url, image_size,
  // steps, guidance, seed): it redraws the reference's subject and look, so `description` cannot steer
  // it and is not sent. A model that follows text as well (fal-ai/flux-pro/v1.1/redux) would need a
  // catalogue change.
  fal: (request) => ({
    image_url: inputFile(request.style, 'style'),
    image_size: sizeNearOneMegapixel(request.style.width, request.style.height),
    ...falCommon(request),
  }),
  // black-forest-labs/flux-redux-dev takes no prompt (redux_image, aspect_ratio, num_outputs, guidance,
  // steps, seed, output settings): it redraws the reference's subject and look, so `description` cannot
  // steer it and is not sent. The output keeps the reference's shape.
  replicate: (request) => ({
    redux_image: inputFile(request.style, 'style'),
    aspect_ratio: nearestAspectRatio(request.style.width, request.style.height),
    seed: request.seed,
    num_outputs: 1,
    output_format: 'png',
  }),
  local: (request, { run, textToImage }) => copyStyleLocally(request, run, textToImage),
};
