import type { ReferralCodeView, ReferralView } from '@lumina/contracts';
import type { ReferralCodeRow } from '../../db/schema/index.ts';
import type { CodeStats, ReferredPerson } from './referrals.service.ts';

/** Rows to the contract's shapes (snake_case, ISO dates). */

export function toCodeView(
  stats: CodeStats | { row: ReferralCodeRow; signups?: number; completed?: number; creditsEarned?: number },
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
    created_at: row.createdAt.toISOString(),
  };
}

export function toReferralView(person: ReferredPerson): ReferralView {
  const { referral } = person;
  return {
    id: referral.id,
    email: person.maskedEmail,
    code: person.code,
    status: referral.status as ReferralView['status'],
    // What the caller kept: nothing before completion, nothing once clawed back.
    reward_credits: referral.status === 'completed' ? referral.referrerReward : 0,
    joined_at: referral.boundAt.toISOString(),
    completed_at: referral.completedAt?.toISOString() ?? null,
  };
}
