/**
 * Pieces of fal model inputs that several tools share (tools/*.ts hold each tool's input). Inputs are
 * built from the client's endpoint typings (docs/reference/providers/fal.md §10).
 */

/** The output settings every FLUX endpoint takes. */
export function falCommon(request: { seed: number }): Record<string, unknown> {
  return { seed: request.seed, num_images: 1, output_format: 'png', enable_safety_checker: true };
}

/** About one megapixel at the reference's aspect ratio, in multiples of 16 (what FLUX works in). */
export function sizeNearOneMegapixel(width: number, height: number): { width: number; height: number } {
  const ratio = width / height;
  const w = Math.sqrt(1024 * 1024 * ratio);
  const round16 = (n: number) => Math.max(256, Math.min(2048, Math.round(n / 16) * 16));
  return { width: round16(w), height: round16(w / ratio) };
}
