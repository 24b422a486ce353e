import sharp from 'sharp';
import type { ProductHoldingRequest, ProviderImage } from '../../image-tools.ts';
import { rgbToLab } from './colour.ts';
import {
  clamp,
  decodeInput,
  forEachBand,
  rejected,
  smoothstep,
  type RawImage,
  type ToolRun,
} from './common.ts';
import { parseEditPrompt, toneAndColour } from './edit.ts';

/**
 * Local product compositing: the person fills the frame at the requested size (cover crop, keeping
 * the most interesting region), the product is cut out of its background and placed in the lower
 * middle, about 40% of the frame tall, as if held up to the camera, over a soft drop shadow.
 *
 * The cut-out is background removal by colour distance: the product photo's border colour is taken
 * as its background, and pixels close to it (in Lab) *and connected to the border* become transparent,
 * so a white label on a white backdrop survives. Edges are feathered and cleaned of the backdrop's
 * colour. A product PNG that already has a transparent background keeps its own alpha; a photo whose
 * border is not a plain colour is placed whole, as a card with rounded corners.
 */

export const PRODUCT_MIN_SIDE = 64;
export const PRODUCT_MAX_SIDE = 4096;
/** Share of the output height the product takes, and the most of its width. */
const PRODUCT_HEIGHT = 0.4;
const PRODUCT_MAX_WIDTH = 0.62;
/** Where the product's bottom edge sits (share of the height from the top). */
const PRODUCT_BOTTOM = 0.93;
/** Product photos are cut out at this size at most (enough for a product 40% of a 4K frame tall). */
const CUTOUT_MAX_SIDE = 1600;

/** Past this mismatch between the person photo's shape and the frame's, cropping would lose the person. */
const MAX_CROP_MISMATCH = 1.3;

/**
 * A portrait photo cropped to 16:9 keeps only a band across the face, and the product then covers the
 * mouth. When the shapes differ this much, the whole photo is fitted into the frame over a blurred,
 * dimmed fill of itself (how product shots are usually extended); otherwise it is cropped as it is.
 */
async function frameThePerson(person: ProductHoldingRequest['person'], W: number, H: number) {
  const mismatch = Math.max(person.width / person.height / (W / H), W / H / (person.width / person.height));
  if (mismatch <= MAX_CROP_MISMATCH) return person;
  try {
    const [backdrop, fitted] = await Promise.all([
      sharp(person.bytes)
        .rotate()
        .resize(W, H, { fit: 'cover' })
        .blur(Math.max(8, W / 40))
        .modulate({ brightness: 0.8 })
        .png()
        .toBuffer(),
      sharp(person.bytes)
        .rotate()
        .resize(W, H, { fit: 'inside' })
        .png()
        .toBuffer({ resolveWithObject: true }),
    ]);
    const bytes = await sharp(backdrop)
      .composite([
        {
          input: fitted.data,
          left: Math.round((W - fitted.info.width) / 2),
          top: Math.round((H - fitted.info.height) / 2),
        },
      ])
      .png()
      .toBuffer();
    return { bytes, contentType: 'image/png', width: W, height: H };
  } catch {
    // Unreadable: decodeInput reports it in words below.
    return person;
  }
}

export type CutoutMethod = 'alpha' | 'background' | 'whole';

export interface Cutout {
  /** RGBA pixels, trimmed to the product. */
  data: Buffer;
  width: number;
  height: number;
  method: CutoutMethod;
}

export async function productHolding(request: ProductHoldingRequest, run: ToolRun): Promise<ProviderImage> {
  const { width: W, height: H } = request;
  for (const [v, what] of [
    [W, 'width'],
    [H, 'height'],
  ] as const) {
    if (!Number.isInteger(v) || v < PRODUCT_MIN_SIDE || v > PRODUCT_MAX_SIDE) {
      throw rejected(
        `bad ${what} ${v}`,
        `The picture ${what} must be a whole number of pixels from ${PRODUCT_MIN_SIDE} to ${PRODUCT_MAX_SIDE} (got ${v}).`,
      );
    }
  }
  await run.progress(5, 'Framing the person');
  const scene = await decodeInput(await frameThePerson(request.person, W, H), 'person image', {
    cover: { width: W, height: H },
  });

  await run.progress(25, 'Cutting out the product');
  const product = await decodeInput(request.product, 'product image', {
    keepAlpha: true,
    fit: { width: CUTOUT_MAX_SIDE, height: CUTOUT_MAX_SIDE },
  });
  const cut = await cutOut(product, run);

  await run.progress(55, 'Placing the product');
  const scale = Math.min((H * PRODUCT_HEIGHT) / cut.height, (W * PRODUCT_MAX_WIDTH) / cut.width);
  const pw = Math.max(1, Math.round(cut.width * scale));
  const ph = Math.max(1, Math.round(cut.height * scale));
  const placed = await sharp(cut.data, { raw: { width: cut.width, height: cut.height, channels: 4 } })
    .resize(pw, ph, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  harmonise(placed, scene);
  const left = Math.round((W - pw) / 2);
  const top = Math.round(H * PRODUCT_BOTTOM - ph);

  await run.progress(70, 'Adding a shadow');
  const shadow = await dropShadow(placed, pw, ph, H);
  // Blended here rather than with sharp's composite, which misplaces overlays that cross the edge.
  const composite = scene.data;
  blendOver(composite, W, H, shadow.data, shadow.width, shadow.height, left + shadow.dx, top + shadow.dy);
  blendOver(composite, W, H, placed, pw, ph, left, top);

  // The prompt is for vendors that repaint; here only its colour and tone words apply, lightly.
  const tone = parseEditPrompt(request.prompt ?? '');
  if (request.prompt && !tone.intents.includes('enhance')) {
    await run.progress(85, `Adjusting the light (${tone.intents.join(', ')})`);
    const toned = Buffer.from(composite);
    await toneAndColour(
      { data: toned, width: W, height: H, channels: 3 },
      { ...tone.adjustments, vignette: 0 },
      run,
    );
    for (let i = 0; i < composite.length; i++)
      composite[i] = Math.round(composite[i]! * 0.65 + toned[i]! * 0.35);
  }

  await run.progress(92, 'Encoding');
  // JPEG: the result is a photograph of about a megapixel; PNG would be several times larger for no
  // visible gain at quality 92 with full-resolution colour.
  const bytes = await sharp(composite, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 92, chromaSubsampling: '4:4:4' })
    .toBuffer();
  return { bytes, contentType: 'image/jpeg', width: W, height: H };
}

/** The product on a transparent background, trimmed to its bounds. */
export async function cutOut(img: RawImage, run: ToolRun): Promise<Cutout> {
  const { width: w, height: h, channels } = img;
  const n = w * h;
  const alpha = new Uint8Array(n);
  let method: CutoutMethod;
  const border = borderIndices(w, h, Math.max(1, Math.round(Math.min(w, h) * 0.01)));

  if (channels === 4 && border.filter((p) => img.data[p * 4 + 3]! < 128).length > border.length / 2) {
    method = 'alpha';
    for (let p = 0; p < n; p++) alpha[p] = img.data[p * 4 + 3]!;
  } else {
    const lab = rgbToLab(img.data, channels);
    await run.checkpoint();
    const bg = [0, 1, 2].map((c) => median(border.map((p) => img.data[p * channels + c]!))) as [
      number,
      number,
      number,
    ];
    const bgLab = rgbToLab(Uint8Array.from(bg), 3);
    const dist = new Float32Array(n);
    for (let p = 0; p < n; p++) {
      dist[p] = Math.hypot(lab[p * 3]! - bgLab[0]!, lab[p * 3 + 1]! - bgLab[1]!, lab[p * 3 + 2]! - bgLab[2]!);
    }
    const spread = percentile(
      border.map((p) => dist[p]!),
      0.9,
    );
    // Tolerances adapt to how even the backdrop is (a photographed white sweep is never one value).
    const t0 = clamp(spread * 1.5 + 4, 6, 30);
    const t1 = t0 + 14;
    const background = spread > 25 ? undefined : floodFrom(border, dist, t1, w, h);
    if (background) {
      method = 'background';
      for (let p = 0; p < n; p++)
        alpha[p] = background[p] ? Math.round(255 * smoothstep(t0, t1, dist[p]!)) : 255;
      await run.checkpoint();
      const soft = await sharp(Buffer.from(alpha.buffer), { raw: { width: w, height: h, channels: 1 } })
        .blur(Math.max(0.6, Math.min(w, h) / 700))
        .extractChannel(0)
        .raw()
        .toBuffer();
      alpha.set(soft);
      const opaque = alpha.reduce((s, a) => s + (a > 127 ? 1 : 0), 0);
      // Nothing (or nearly nothing) left: the "product" was the backdrop colour all over.
      if (opaque < n * 0.01) method = 'whole';
      else decontaminate(img, alpha, bg);
    } else {
      method = 'whole';
    }
    if (method === 'whole') roundedCard(alpha, w, h);
  }

  // Trim to the product.
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  await forEachBand(run, w, h, (ya, yb) => {
    for (let y = ya; y < yb; y++) {
      for (let x = 0; x < w; x++) {
        if (alpha[y * w + x]! > 8) {
          if (x < x0) x0 = x;
          if (x > x1) x1 = x;
          if (y < y0) y0 = y;
          if (y > y1) y1 = y;
        }
      }
    }
  });
  if (x1 < 0)
    throw rejected('empty product cut-out', 'The product image looks empty: we found no product in it.');
  const cw = x1 - x0 + 1;
  const ch = y1 - y0 + 1;
  const data = Buffer.alloc(cw * ch * 4);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const p = (y + y0) * w + (x + x0);
      const o = (y * cw + x) * 4;
      data[o] = img.data[p * channels]!;
      data[o + 1] = img.data[p * channels + 1]!;
      data[o + 2] = img.data[p * channels + 2]!;
      data[o + 3] = alpha[p]!;
    }
  }
  return { data, width: cw, height: ch, method };
}

/** Pixel indices of a frame `t` pixels thick around the image. */
function borderIndices(w: number, h: number, t: number): number[] {
  const out: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (x < t || y < t || x >= w - t || y >= h - t) out.push(y * w + x);
    }
  }
  return out;
}

/** Pixels closer than `limit` to the backdrop colour and 4-connected to the border through such pixels. */
function floodFrom(seeds: number[], dist: Float32Array, limit: number, w: number, h: number): Uint8Array {
  const seen = new Uint8Array(w * h);
  const stack = new Int32Array(w * h);
  let top = 0;
  for (const p of seeds) {
    if (dist[p]! < limit && !seen[p]) {
      seen[p] = 1;
      stack[top++] = p;
    }
  }
  while (top > 0) {
    const p = stack[--top]!;
    const x = p % w;
    const visit = (q: number) => {
      if (!seen[q] && dist[q]! < limit) {
        seen[q] = 1;
        stack[top++] = q;
      }
    };
    if (x > 0) visit(p - 1);
    if (x < w - 1) visit(p + 1);
    if (p >= w) visit(p - w);
    if (p < w * (h - 1)) visit(p + w);
  }
  return seen;
}

/** Removes the backdrop colour mixed into semi-transparent edge pixels (so no halo of it remains). */
function decontaminate(img: RawImage, alpha: Uint8Array, bg: [number, number, number]): void {
  const { channels } = img;
  for (let p = 0; p < alpha.length; p++) {
    const a = alpha[p]! / 255;
    if (a <= 0.04 || a >= 0.98) continue;
    for (let c = 0; c < 3; c++) {
      const i = p * channels + c;
      img.data[i] = clamp(Math.round((img.data[i]! - (1 - a) * bg[c]!) / a), 0, 255);
    }
  }
}

/** A full-frame alpha with rounded, anti-aliased corners (a product photo placed as a card). */
function roundedCard(alpha: Uint8Array, w: number, h: number): void {
  const r = Math.min(w, h) * 0.06;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dx = Math.max(0, r - x - 0.5, x + 0.5 - (w - r));
      const dy = Math.max(0, r - y - 0.5, y + 0.5 - (h - r));
      const outside = Math.hypot(dx, dy) - r;
      alpha[y * w + x] = Math.round(255 * clamp(0.5 - outside, 0, 1));
    }
  }
}

/** Nudges the product's colours towards the scene's average light (8%), so it sits in the picture. */
function harmonise(rgba: Buffer, scene: RawImage): void {
  const mean = [0, 0, 0];
  const n = scene.width * scene.height;
  for (let p = 0; p < n; p++) for (let c = 0; c < 3; c++) mean[c]! += scene.data[p * 3 + c]!;
  const grey = (mean[0]! + mean[1]! + mean[2]!) / 3 || 1;
  const gains = mean.map((m) => 1 + 0.08 * (m / grey - 1));
  for (let i = 0; i < rgba.length; i += 4) {
    for (let c = 0; c < 3; c++) rgba[i + c] = clamp(Math.round(rgba[i + c]! * gains[c]!), 0, 255);
  }
}

/** A soft black shadow from the product's alpha, offset down and right, padded for the blur. */
async function dropShadow(
  rgba: Buffer,
  w: number,
  h: number,
  frameHeight: number,
): Promise<{ data: Buffer; width: number; height: number; dx: number; dy: number }> {
  const sigma = Math.max(2, frameHeight * 0.012);
  const pad = Math.ceil(sigma * 3);
  const mask = Buffer.alloc(w * h);
  for (let p = 0; p < w * h; p++) mask[p] = Math.round(rgba[p * 4 + 3]! * 0.5);
  const blurred = await sharp(mask, { raw: { width: w, height: h, channels: 1 } })
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .blur(sigma)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sw = blurred.info.width;
  const sh = blurred.info.height;
  const data = Buffer.alloc(sw * sh * 4);
  for (let p = 0; p < sw * sh; p++) data[p * 4 + 3] = blurred.data[p]!;
  const offset = Math.round(frameHeight * 0.015);
  return { data, width: sw, height: sh, dx: offset - pad, dy: Math.round(offset * 1.4) - pad };
}

/** Alpha-blends RGBA pixels over RGB ones at (left, top), clipped to the frame. */
function blendOver(
  rgb: Buffer,
  W: number,
  H: number,
  rgba: Buffer,
  w: number,
  h: number,
  left: number,
  top: number,
): void {
  for (let y = Math.max(0, -top); y < h && y + top < H; y++) {
    for (let x = Math.max(0, -left); x < w && x + left < W; x++) {
      const s = (y * w + x) * 4;
      const a = rgba[s + 3]! / 255;
      if (a === 0) continue;
      const d = ((y + top) * W + (x + left)) * 3;
      for (let c = 0; c < 3; c++) rgb[d + c] = Math.round(rgb[d + c]! * (1 - a) + rgba[s + c]! * a);
    }
  }
}

function median(xs: number[]): number {
  return percentile(xs, 0.5);
}

function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))] ?? 0;
}
