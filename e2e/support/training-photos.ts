import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

/** A small seeded generator, so the photos are the same on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * `count` training photos, each different to the eye and to a perceptual hash: its own background
 * gradient (hue and direction), a subject (a head-and-shoulders shape) in its own place and colour,
 * and scattered shapes. 768 × 960 px JPEGs, over the 512 px minimum. Returns their paths.
 */
export async function trainingPhotos(dir: string, count: number): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const width = 768;
  const height = 960;
  const paths: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const next = random(1000 + i * 7919);
    const hue = Math.round((i * 360) / count);
    const angle = (i * 47) % 360;
    const cx = Math.round(width * (0.3 + 0.4 * next()));
    const cy = Math.round(height * (0.3 + 0.3 * next()));
    const shapes = Array.from({ length: 14 }, () => {
      const x = Math.round(next() * width);
      const y = Math.round(next() * height);
      const size = Math.round(30 + next() * 140);
      const shade = Math.round(next() * 360);
      return next() > 0.5
        ? `<rect x="${x}" y="${y}" width="${size}" height="${size / 2}" fill="hsl(${shade},70%,${30 + next() * 50}%)" opacity="0.8"/>`
        : `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="hsl(${shade},60%,${20 + next() * 60}%)" opacity="0.7"/>`;
    }).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)">
        <stop offset="0" stop-color="hsl(${hue},70%,${25 + (i % 3) * 20}%)"/>
        <stop offset="1" stop-color="hsl(${(hue + 140) % 360},60%,${80 - (i % 4) * 12}%)"/>
      </linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>
      ${shapes}
      <ellipse cx="${cx}" cy="${cy + 260}" rx="210" ry="150" fill="hsl(${(hue + 200) % 360},45%,35%)"/>
      <circle cx="${cx}" cy="${cy}" r="120" fill="hsl(28,${40 + i * 4}%,${55 + (i % 2) * 10}%)"/>
      <circle cx="${cx - 40}" cy="${cy - 20}" r="12" fill="#1b1b1b"/>
      <circle cx="${cx + 40}" cy="${cy - 20}" r="12" fill="#1b1b1b"/>
      <path d="M ${cx - 45} ${cy + 45} Q ${cx} ${cy + 80} ${cx + 45} ${cy + 45}" stroke="#5a1f1f" stroke-width="8" fill="none"/>
    </svg>`;
    const path = join(dir, `training-${String(i + 1).padStart(2, '0')}.jpg`);
    await sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toFile(path);
    paths.push(path);
  }
  return paths;
}
