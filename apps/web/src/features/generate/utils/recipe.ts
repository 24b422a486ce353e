import type { AspectRatio, ModelInfo } from '@lumina/contracts';

/** The parts of an image's recipe a remix reads (an `ImageView` has all of them). */
export interface Recipe {
  prompt: string | null;
  negative_prompt: string | null;
  model: string;
  seed: number | null;
  lora_scale: number | null;
  prompt_strength: number | null;
  width: number;
  height: number;
}

const ratioValue = (ratio: AspectRatio) => {
  const [w, h] = ratio.split(':').map(Number);
  return (w ?? 1) / (h ?? 1);
};

/** The offered aspect ratio closest to a width × height (compared on a log scale, so 2:1 and 1:2 are symmetric). */
export function nearestAspectRatio(
  width: number,
  height: number,
  offered: readonly AspectRatio[],
): AspectRatio | null {
  if (!offered.length || width <= 0 || height <= 0) return offered[0] ?? null;
  const target = Math.log(width / height);
  let best = offered[0] as AspectRatio;
  for (const ratio of offered) {
    if (Math.abs(Math.log(ratioValue(ratio)) - target) < Math.abs(Math.log(ratioValue(best)) - target))
      best = ratio;
  }
  return best;
}

/** Shape of a ratio chip's preview box, at most `size` px on its long side. */
export function ratioBox(ratio: AspectRatio, size: number) {
  const value = ratioValue(ratio);
  return value >= 1
    ? { width: size, height: Math.round(size / value) }
    : { width: Math.round(size * value), height: size };
}

export function findModel(models: readonly ModelInfo[] | undefined, id: string | null) {
  return models?.find((m) => m.id === id);
}

/**
 * The model a fresh form starts with: the first available shared one (the catalogue lists the default
 * first); a person's own model is picked by them, never by default.
 */
export function defaultModel(models: readonly ModelInfo[]): ModelInfo | undefined {
  return (
    models.find((m) => m.available && m.personal === null) ?? models.find((m) => m.available) ?? models[0]
  );
}
