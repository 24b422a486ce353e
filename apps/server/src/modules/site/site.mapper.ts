import type { LegalPage } from '@lumina/contracts';
import type { Config } from '../../config.ts';
import type { LegalTexts } from './site.routes.ts';

/**
 * What the browser may know: of the analytics settings the public key and host, never the rest; of the
 * referral programme what a visitor is offered.
 */
export function toPublicConfig(analytics: Config['analytics'], referrals: Config['referrals']) {
  return {
    analytics: analytics ? { posthog_key: analytics.key, posthog_host: analytics.host } : null,
    referrals: {
      reward_credits: referrals.rewardCredits,
      welcome_credits: referrals.welcomeCredits,
      monthly_cap: referrals.monthlyCap,
      settle_days: referrals.settleDays,
    },
  };
}

export function toLegalDocumentView(page: LegalPage, text: LegalTexts[LegalPage]) {
  return { page, markdown: text.markdown, is_default: text.isDefault };
}
