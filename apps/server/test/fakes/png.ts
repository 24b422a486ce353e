import sharp from 'sharp';

/**
 * Real, small PNGs for the fake provider servers to serve as "generated" output, so adapter tests can
 * compare downloaded bytes and decode them like production output. Cached per size and index.
 */
const cache = new Map<string, Promise<Buffer>>();

export function fakePng(width: number, height: number, index = 0): Promise<Buffer> {
  const key = `${width}x${height}#${index}`;
  let png = cache.get(key);
  if (!png) {
    // A distinct colour per index, so tests can tell output images apart by their bytes.
    const hue = (index * 97) % 256;
    png = sharp({
      create: { width, height, channels: 3, background: { r: hue, g: 255 - hue, b: (hue * 3) % 256 } },
    })
      .png()
      .toBuffer();
    cache.set(key, png);
  }
  return png;
}

/** A fetch that only reaches 127.0.0.1 and records every URL it was asked for (tests must stay local). */
export function loopbackFetch(seen: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    // The OpenAI SDK probes its fetch with `data:,` (FormData support); that never leaves the process.
    if (url.protocol === 'data:') return fetch(input, init);
    seen.push(url.toString());
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
      return Promise.reject(new Error(`test tried to reach ${url.origin}; only 127.0.0.1 is allowed`));
    }
    return fetch(input, init);
  };
}
