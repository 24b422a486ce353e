import sharp from 'sharp';
import { falCommon } from '../fal/fal.tool-inputs.ts';
import { inputFile } from '../hosted.ts';
import type { InputImage } from '../image-tools.ts';
import { productHolding as productHoldingLocally } from '../local/tools/product.ts';
import type { AdapterTool, ToolRequestCommon } from './adapter-tool.ts';

/** Product holding: one photo of a person holding a product, from a picture of each. */
export interface ProductHoldingRequest extends ToolRequestCommon {
  tool: 'product_holding';
  person: InputImage;
  product: InputImage;
  /** One of PRODUCT_ASPECT_RATIOS ("3:4"). */
  aspectRatio: string;
  /** Output size for that ratio (about one megapixel). */
  width: number;
  height: number;
  /** Optional extra direction ("on a beach, smiling"). */
  prompt?: string;
}

export const productHolding: AdapterTool<ProductHoldingRequest, 'images'> = {
  output: 'images',
  localModel: 'local/product',
  // fal-ai/flux-kontext/dev, with both pictures as one reference (productHoldingInput says why).
  fal: (request) => productHoldingInput(request, falCommon(request)),
  // flux-kontext-apps/multi-image-kontext-pro with two reference images: the person is image 1, the
  // product image 2.
  replicate: (request) => ({
    prompt: holdingPrompt(REPLICATE_PROMPT, request.prompt),
    input_image_1: inputFile(request.person, 'person'),
    input_image_2: inputFile(request.product, 'product'),
    aspect_ratio: request.aspectRatio,
    seed: request.seed,
    output_format: 'png',
    safety_tolerance: 2,
  }),
  local: (request, { run }) => productHoldingLocally(request, run),
};

/**
 * FLUX.1 Kontext [dev] edits one image by instruction; it has no second image input. So both pictures go
 * in as one reference, side by side on a white canvas at the requested aspect ratio (the person on the
 * left, larger; the product on the right), and the instruction asks for a single photo of that person
 * holding that product. `resolution_mode` asks for the output at the same aspect ratio. This is the usual
 * way to give Kontext [dev] several references; the Replicate adapter uses a multi-image Kontext model.
 */
async function productHoldingInput(
  request: ProductHoldingRequest,
  common: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const reference = await sideBySide(request.person, request.product, request.width, request.height);
  return {
    image_url: inputFile({ bytes: reference, contentType: 'image/png' }, 'person-and-product'),
    prompt: holdingPrompt(FAL_PROMPT, request.prompt),
    resolution_mode: request.aspectRatio,
    ...common,
  };
}

/** The person (left, 60 %) and the product (right, 40 %), each fitted whole, on a white width × height canvas. */
async function sideBySide(
  person: InputImage,
  product: InputImage,
  width: number,
  height: number,
): Promise<Buffer> {
  const personWidth = Math.round(width * 0.6);
  const productWidth = width - personWidth;
  const white = { r: 255, g: 255, b: 255, alpha: 1 };
  const [left, right] = await Promise.all([
    sharp(person.bytes).resize(personWidth, height, { fit: 'contain', background: white }).png().toBuffer(),
    sharp(product.bytes)
      .resize(productWidth, Math.round(height * 0.7), { fit: 'contain', background: white })
      .png()
      .toBuffer(),
  ]);
  return sharp({ create: { width, height, channels: 3, background: white } })
    .composite([
      { input: left, left: 0, top: 0 },
      { input: right, left: personWidth, top: Math.round(height * 0.15) },
    ])
    .removeAlpha()
    .png()
    .toBuffer();
}

/**
 * The instruction each hosted model gets: its own first and last sentences (how its references arrive:
 * one side-by-side picture on fal, two images on Replicate) around what both must keep, then the
 * person's own direction.
 */
const FAL_PROMPT = [
  'Make one photo of the person on the left holding the product shown on the right in their hands, presenting it to the camera.',
  'Natural lighting and shadows; no side-by-side layout and no white border in the result.',
] as const;
const REPLICATE_PROMPT = [
  'The person from the first image holds the product from the second image in their hands, presenting it to the camera.',
  'One natural photo with matching lighting and shadows.',
] as const;
const KEEP_AS_THEY_ARE =
  "Keep the person's face, hair, body and clothing, and the product's shape, colours, label and logo, exactly as they are.";

function holdingPrompt([subject, look]: readonly [string, string], direction: string | undefined): string {
  return [subject, KEEP_AS_THEY_ARE, look, direction ? `Also: ${direction}` : ''].filter(Boolean).join(' ');
}
