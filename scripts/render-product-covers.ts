/**
 * Renders the built-in products' sample images (`apps/web/public/products/*.webp`) with the local
 * engine, so they can be remade whenever the engine or the catalogue changes:
 *
 *   npx tsx scripts/render-product-covers.ts
 *
 * Each cover is the product's own prompt (the n-th of its prompts for its n-th cover, the buyer's
 * likeness replaced by "a person", as no model is trained here) at a fixed seed, rendered at 768×1024
 * and written as a WebP small enough to ship with the web app (at most MAX_BYTES).
 */
import { writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import sharp from 'sharp';
import { LocalTextToImage } from '../apps/server/src/adapters/providers/local/local.text-to-image.ts';
import { BUILT_IN_SHOOTS } from '../apps/server/src/modules/products/product-catalogue.ts';

const OUT_DIR = resolve(import.meta.dirname, '../apps/web/public/products');
const MAX_BYTES = 40 * 1024;
const WIDTH = 768;
const HEIGHT = 1024;
const SEED = 1313;

const engine = new LocalTextToImage();
const ctx = { signal: new AbortController().signal, onProgress: () => {}, onSubmitted: () => {} };

for (const product of BUILT_IN_SHOOTS) {
  for (const [index, cover] of product.covers.entries()) {
    if (!cover.startsWith('/products/')) continue; // an operator's own URL: nothing to render here
    const { prompt } = product.shoot.prompts[index % product.shoot.prompts.length]!;
    const result = await engine.run(
      {
        providerModel: 'local/aurora',
        prompt: prompt.replaceAll('{trigger}', 'a person'),
        seed: SEED + index,
        width: WIDTH,
        height: HEIGHT,
        numImages: 1,
      },
      ctx,
    );
    const png = result.images[0]!.bytes;
    // The best quality that still fits the budget: covers are shown at most a few hundred pixels wide.
    let webp = Buffer.alloc(0);
    for (let quality = 80; quality >= 30; quality -= 10) {
      webp = await sharp(png).resize(480, 640).webp({ quality }).toBuffer();
      if (webp.length <= MAX_BYTES) break;
    }
    if (webp.length > MAX_BYTES) throw new Error(`${cover} is ${webp.length} bytes, over ${MAX_BYTES}`);
    const file = resolve(OUT_DIR, basename(cover));
    writeFileSync(file, webp);
    console.log(`${cover}: ${webp.length} bytes`);
  }
}
