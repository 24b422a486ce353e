import type {
  ReferralCodeView,
  ReferralIneligibleReason,
  ReferralStatus,
  ReferralView,
} from '@lumina/contracts';
import type { ReferralCodeRow, ReferralRow } from '../../db/schema/index.ts';
import type { CodeStats, ReferredPerson } from './referrals.service.ts';

/** Rows to the contract's shapes (snake_case, ISO dates). */

export function toCodeView(
  stats:
    | CodeStats
    | {
        row: ReferralCodeRow;
        signups?: number;
        completed?: number;
        creditsEarned?: number;
        creditsPending?: number;
      },
  link: (code: string) => string,
  now = new Date(),
): ReferralCodeView {
  const { row } = stats;
  return {
    code: row.code,
    active: row.active && !row.deletedAt,
    is_default: row.isDefault,
    expires_at: row.expiresAt?.toISOString() ?? null,
    expired: Boolean(row.expiresAt && row.expiresAt <= now),
    link: link(row.code),
    visits: row.visits,
    signups: stats.signups ?? 0,
    completed: stats.completed ?? 0,
    credits_earned: stats.creditsEarned ?? 0,
    credits_pending: stats.creditsPending ?? 0,
    created_at: row.createdAt.toISOString(),
  };
}

export function toReferralView(person: ReferredPerson): ReferralView {
  const { referral } = person;
  return {
    id: referral.id,
    email: person.maskedEmail,
    code: person.code,
    status: referral.status as ReferralStatus,
    // What the caller kept or has pending: nothing before payment, nothing once clawed back.
    reward_credits:
      referral.status === 'completed' || referral.status === 'settling' ? referral.referrerReward : 0,
    not_eligible_reason:
      referral.status === 'not_eligible' ? (referral.ineligibleReason as ReferralIneligibleReason) : null,
    joined_at: referral.boundAt.toISOString(),
    completed_at: referral.completedAt?.toISOString() ?? null,
    settles_at: settlingUntil(referral),
  };
}

/** When a settling referral's rewards become spendable; null in every other state. */
export const settlingUntil = (referral: ReferralRow): string | null =>
  referral.status === 'settling' ? (referral.settlesAt?.toISOString() ?? null) : null;
