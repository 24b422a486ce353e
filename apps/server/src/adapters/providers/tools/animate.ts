import { DEFAULT_MOTION_PROMPT, inputFile, klingSeconds } from '../hosted.ts';
import type { InputImage } from '../image-tools.ts';
import { animateImage } from '../local/tools/animate.ts';
import { REPLICATE } from '../replicate/replicate.tool-inputs.ts';
import type { AdapterTool, ToolRequestCommon } from './adapter-tool.ts';

/** Animate: a short video from one image (image-to-video). */
export interface AnimateRequest extends ToolRequestCommon {
  tool: 'animate';
  image: InputImage;
  prompt?: string;
  /** Seconds of video wanted (one of ANIMATE_DURATIONS). */
  durationSeconds: number;
}

export const animate: AdapterTool<AnimateRequest, 'video'> = {
  output: 'video',
  localModel: 'local/pan-zoom',
  // fal-ai/kling-video/v2.1/standard/image-to-video.
  fal: (request) => ({
    image_url: inputFile(request.image, 'image'),
    prompt: request.prompt || DEFAULT_MOTION_PROMPT,
    duration: String(klingSeconds('fal', request)) as '5' | '10',
  }),
  // kwaivgi/kling-v2.1.
  replicate: (request) => ({
    prompt: request.prompt || DEFAULT_MOTION_PROMPT,
    start_image: inputFile(request.image, 'image'),
    duration: klingSeconds(REPLICATE, request),
    mode: 'standard',
  }),
  local: (request, { run, ffmpegPath }) => animateImage(request, run, { ffmpegPath }),
};
