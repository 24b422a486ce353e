import type { LegalPage } from '@lumina/contracts';
import type { Config } from '../../config.ts';
import type { LegalTexts } from './site.routes.ts';

/** What the browser may know of the analytics settings: the public key and host, never the rest. */
export function toPublicConfig(analytics: Config['analytics']) {
  return { analytics: analytics ? { posthog_key: analytics.key, posthog_host: analytics.host } : null };
}

export function toLegalDocumentView(page: LegalPage, text: LegalTexts[LegalPage]) {
  return { page, markdown: text.markdown, is_default: text.isDefault };
}
