import type { Gender, OnboardingView, UseCase } from '@lumina/contracts';
import type { UserProfileRow } from '../../db/schema/index.ts';

/** The answers as the wire shows them; no row yet means nothing answered and not onboarded. */
export function toOnboardingView(row: UserProfileRow | undefined): OnboardingView {
  return {
    use_case: (row?.useCase as UseCase | null) ?? null,
    country: row?.country ?? null,
    phone: row?.phone ?? null,
    referral_source: row?.referralSource ?? null,
    gender: (row?.gender as Gender | null) ?? null,
    // The same rule as GET /api/user (users.repository.ts isOnboarded).
    onboarded: Boolean(row?.completedAt ?? row?.skippedAt),
    completed_at: row?.completedAt?.toISOString() ?? null,
    skipped_at: row?.skippedAt?.toISOString() ?? null,
  };
}
