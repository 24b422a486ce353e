import { falCommon } from '../fal/fal.tool-inputs.ts';
import { inputFile } from '../hosted.ts';
import type { InputImage } from '../image-tools.ts';
import { editImage } from '../local/tools/edit.ts';
import type { AdapterTool, ToolRequestCommon } from './adapter-tool.ts';

/** Edit: the image redrawn after a prompt, moving at most `strength` away from the original. */
export interface EditRequest extends ToolRequestCommon {
  tool: 'edit';
  image: InputImage;
  prompt: string;
  negativePrompt?: string;
  /** 0.05..1: how far the result may move from the original. */
  strength: number;
}

export const edit: AdapterTool<EditRequest, 'images'> = {
  output: 'images',
  localModel: 'local/edit',
  // fal-ai/flux/dev/image-to-image. FLUX [dev] image-to-image has no negative prompt: `negativePrompt`
  // is not sent. Its `strength` is ours (how far the result may move from the original).
  fal: (request) => ({
    image_url: inputFile(request.image, 'image'),
    prompt: request.prompt,
    strength: request.strength,
    ...falCommon(request),
  }),
  // black-forest-labs/flux-dev. With `image`, flux-dev runs image-to-image and the output takes the
  // input's aspect ratio, so no `aspect_ratio` is sent. `prompt_strength` is our strength (1 = the
  // original is fully replaced). flux-dev has no negative prompt: `negativePrompt` is not sent.
  replicate: (request) => ({
    prompt: request.prompt,
    image: inputFile(request.image, 'image'),
    prompt_strength: request.strength,
    seed: request.seed,
    num_outputs: 1,
    output_format: 'png',
  }),
  local: (request, { run }) => editImage(request, run),
};
