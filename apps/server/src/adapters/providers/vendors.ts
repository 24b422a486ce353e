import type { ProviderName } from './text-to-image.ts';

/** How a vendor is named in sentences people read ("This server has no fal.ai key configured."). */
export const VENDOR_LABEL: Record<ProviderName, string> = {
  local: 'the local engine',
  fal: 'fal.ai',
  replicate: 'Replicate',
};
