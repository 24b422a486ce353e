import type { Capability } from './catalogue.ts';
import type { ProviderName } from './text-to-image.ts';

/** How a vendor is named in sentences people read ("This server has no fal.ai key configured."). */
export const VENDOR_LABEL: Record<ProviderName, string> = {
  local: 'the local engine',
  fal: 'fal.ai',
  replicate: 'Replicate',
  comfyui: 'ComfyUI',
  a1111: 'AUTOMATIC1111',
  openai: 'OpenAI',
};

/** A vendor as named inside a sentence ("the local engine", "fal.ai"); an unknown one by its id. */
export const vendorLabel = (vendor: string): string => VENDOR_LABEL[vendor as ProviderName] ?? vendor;

/** A phrase as it starts a sentence: "the local engine …" gets its capital; brand names keep their case. */
export const sentenceStart = (s: string): string => (s.startsWith('the ') ? `The ${s.slice(4)}` : s);

/**
 * A vendor as it starts a sentence or stands alone: brand names keep their own case ("fal.ai did not
 * answer in time"), "the local engine" gets its capital.
 */
export const vendorTitle = (vendor: string): string => sentenceStart(vendorLabel(vendor));

/** What ComfyUI runs: the capabilities its workflows have required slots for (`comfyui/workflows.ts`). */
export const COMFYUI_CAPABILITIES = [
  'text-to-image',
  'edit',
  'upscale',
  'copy_style',
] as const satisfies readonly Capability[];
export type ComfyuiCapability = (typeof COMFYUI_CAPABILITIES)[number];

/**
 * What each vendor's adapters can run at all. fal.ai, Replicate and the local engine run everything;
 * a self-hosted server or OpenAI runs only what its API offers (image-to-video, multi-image
 * composition and training need models those do not have). The catalogue refuses at start-up an
 * entry or alternate that names a vendor for work it cannot do, so no job is ever sent there.
 */
export const VENDOR_CAPABILITIES: Record<ProviderName, readonly Capability[] | 'all'> = {
  local: 'all',
  fal: 'all',
  replicate: 'all',
  comfyui: COMFYUI_CAPABILITIES,
  a1111: ['text-to-image', 'edit', 'upscale'],
  openai: ['text-to-image', 'edit'],
};

/** Why `vendor` cannot run `capability` (a sentence for the operator), or undefined when it can. */
export function vendorCannotRun(vendor: ProviderName, capability: Capability): string | undefined {
  const runs = VENDOR_CAPABILITIES[vendor];
  if (runs === 'all' || runs.includes(capability)) return undefined;
  return `${VENDOR_LABEL[vendor]} cannot run ${capability} (it runs ${runs.join(', ')})`;
}
