import { trackReferralContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** POST /api/referrals/track?referral_code=: binds the signed-in person to the code's owner, once. */
export const trackReferral = (code: string) =>
  api.call(trackReferralContract, { query: { referral_code: code } });
