import { z } from 'zod';
import { defineContract } from './contract.ts';
import { dateTimeInput, text } from './text.ts';

/**
 * The referral programme (SPEC.md §2-5, §7-8; issue 14): a person shares a link with their code
 * (`?ref=`), a friend who signs up through it is bound to them once, and when that friend's first
 * payment succeeds both are rewarded in credits (clawed back if that payment is refunded).
 */

/** A referral code: 4-32 letters, digits and dashes; unique without regard to case. */
export const REFERRAL_CODE = /^[A-Za-z0-9-]{4,32}$/;

/** Exactly what the server answers when the person is already bound (SPEC.md §8: the client clears silently). */
export const ALREADY_REFERRED = 'User already has a referral';

const Code = text().trim().regex(REFERRAL_CODE, 'A referral code is 4 to 32 letters, digits or dashes');

export const ReferralCodeView = z
  .object({
    code: z.string(),
    active: z.boolean().describe('Binds new people (turned off by toggle)'),
    is_default: z.boolean().describe('The code every person gets'),
    expires_at: z.iso.datetime().nullable(),
    expired: z.boolean(),
    link: z.string().describe('The link to share (`<web>/?ref=<code>`)'),
    visits: z.int().describe('Link visits seen (validations of this code)'),
    signups: z.int().describe('People bound through this code'),
    completed: z.int().describe('Of those, how many made a first payment'),
    credits_earned: z.int().describe('Reward credits this code earned, after clawbacks'),
    credits_pending: z.int().describe('Reward credits of this code still settling (not spendable yet)'),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'ReferralCode' });
export type ReferralCodeView = z.infer<typeof ReferralCodeView>;

export const ReferralStats = z
  .object({
    visits: z.int(),
    signups: z.int(),
    completed: z.int(),
    credits_earned: z.int().describe('Reward credits granted (spendable), after clawbacks'),
    credits_pending: z
      .int()
      .describe('Reward credits still settling: spendable once settle_days have passed without a refund'),
    reward_credits: z.int().describe('What a referrer gets per completed referral (REFERRAL_REWARD_CREDITS)'),
    welcome_credits: z.int().describe('What the person referred gets (REFERRAL_WELCOME_CREDITS)'),
    monthly_cap: z.int().describe('Rewarded referrals per referrer per calendar month'),
    settle_days: z.int().describe('Days rewards stay pending after the first payment (REFERRAL_SETTLE_DAYS)'),
    rewarded_this_month: z.int(),
    codes: z.array(ReferralCodeView).describe('Per code, the default first'),
  })
  .meta({ id: 'ReferralStats' });
export type ReferralStats = z.infer<typeof ReferralStats>;

export const ReferralStatus = z
  .enum(['joined', 'settling', 'completed', 'clawed_back', 'unrewarded', 'not_eligible'])
  .describe(
    'joined: bound, no payment yet; settling: paid, rewards pending until settles_at; completed: rewarded; clawed_back: the payment was refunded or disputed; unrewarded: completed past the monthly cap or by a too-new referrer; not_eligible: shares an address or card with the referrer or their other referrals, nothing paid',
  )
  .meta({ id: 'ReferralStatus' });
export type ReferralStatus = z.infer<typeof ReferralStatus>;

/** Why a referral is not eligible for rewards. */
export const ReferralIneligibleReason = z
  .enum(['shared_address', 'shared_card'])
  .describe(
    'shared_address: signed up from an address the referrer or another of their referrals used; shared_card: paid with a card the referrer or another of their referrals used',
  )
  .meta({ id: 'ReferralIneligibleReason' });
export type ReferralIneligibleReason = z.infer<typeof ReferralIneligibleReason>;

export const ReferralView = z
  .object({
    id: z.uuid(),
    email: z.string().describe('Masked (a•••@e•••.com); never the full address'),
    code: z.string(),
    status: ReferralStatus,
    reward_credits: z
      .int()
      .describe('Credits this referral earned the caller: pending while settling, 0 if none or taken back'),
    not_eligible_reason: ReferralIneligibleReason.nullable(),
    joined_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
    settles_at: z.iso.datetime().nullable().describe('While settling: when its rewards become spendable'),
  })
  .meta({ id: 'Referral' });
export type ReferralView = z.infer<typeof ReferralView>;

export const referralStatsContract = defineContract({
  method: 'GET',
  path: '/api/referrals/stats',
  summary: 'The caller’s referral numbers: link visits, sign-ups, completed, credits earned, per code',
  tags: ['referrals'],
  response: ReferralStats,
});

export const referralsListContract = defineContract({
  method: 'GET',
  path: '/api/referrals/referrals',
  summary: 'The people who joined through the caller (emails masked), newest first',
  tags: ['referrals'],
  response: z.object({ referrals: z.array(ReferralView) }).meta({ id: 'ReferralList' }),
});

export const createReferralCodeContract = defineContract({
  method: 'POST',
  path: '/api/referrals/referral-codes',
  summary: 'Make a referral code (generated when `code` is empty), optionally expiring',
  tags: ['referrals'],
  body: z.object({
    code: Code.optional().or(z.literal('')).describe('Generated when empty'),
    expires_at: dateTimeInput(
      'expires_at is a date and time that exists (ISO 8601 with a zone), e.g. 2027-01-31T12:00:00Z.',
    )
      .optional()
      .nullable(),
  }),
  response: ReferralCodeView,
  status: 201,
});

const codeParam = z.object({ code: Code });

export const toggleReferralCodeContract = defineContract({
  method: 'PUT',
  path: '/api/referrals/referral-codes/{code}/toggle',
  summary: 'Turn one of your codes off (it stops binding new people) or on again',
  tags: ['referrals'],
  params: codeParam,
  response: ReferralCodeView,
});

export const deleteReferralCodeContract = defineContract({
  method: 'DELETE',
  path: '/api/referrals/referral-codes/{code}',
  summary: 'Delete one of your codes: it stops binding new people; its history stays',
  tags: ['referrals'],
  params: codeParam,
  response: z.object({ deleted: z.literal(true) }),
});

export const trackReferralContract = defineContract({
  method: 'POST',
  path: '/api/referrals/track',
  summary: `Bind the signed-in person to the code’s owner, once (already bound: 409 "${ALREADY_REFERRED}")`,
  tags: ['referrals'],
  query: z.object({ referral_code: Code }),
  response: z
    .object({
      referrer_name: z.string().describe('Display name only, never an email'),
      welcome_credits: z.int().describe('What the caller gets with a first payment'),
    })
    .meta({ id: 'ReferralTracked' }),
});

export const validateReferralContract = defineContract({
  method: 'GET',
  path: '/api/referrals/validate/{code}',
  summary:
    'Public: whether a code can be used and why not; the referrer’s display name only (counts a link visit)',
  tags: ['referrals'],
  auth: false,
  params: z.object({ code: text().max(64) }),
  response: z
    .object({
      valid: z.boolean(),
      reason: z.string().nullable().describe('Why not, in words for people'),
      referrer_name: z.string().nullable(),
      welcome_credits: z.int().describe('What a new person gets with a first payment'),
    })
    .meta({ id: 'ReferralValidation' }),
});

export const referralCompletionContract = defineContract({
  method: 'GET',
  path: '/api/referrals/complete/{code}',
  summary: 'The caller’s completion state for that code: bound to it or not, completed (rewarded) or not',
  tags: ['referrals'],
  params: codeParam,
  response: z
    .object({
      bound: z.boolean().describe('The caller was referred through this code'),
      status: ReferralStatus.nullable(),
      completed: z.boolean(),
      completed_at: z.iso.datetime().nullable(),
      welcome_credits: z.int().describe('Credits the caller got or has pending (0 until completed)'),
      settles_at: z.iso
        .datetime()
        .nullable()
        .describe('While settling: when the welcome credits become spendable'),
    })
    .meta({ id: 'ReferralCompletion' }),
});
