import { contracts, type ReferralStatus } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { clientAddress } from '../limits/client-address.ts';
import { perMinuteBudget } from '../limits/limits.plugin.ts';
import { settlingUntil, toCodeView, toReferralView } from './referrals.mapper.ts';
import type { ReferralsService } from './referrals.service.ts';

const HOUR_MS = 60 * 60 * 1000;

export function referralsRoutes(app: FastifyInstance, referrals: ReferralsService): void {
  const auth = { preHandler: app.requireUser };
  const link = (code: string) => referrals.link(code);
  const { settings } = referrals;

  route(
    app,
    contracts.referralStats,
    async (request) => {
      const stats = await referrals.stats(request.user.id, clientAddress(request));
      const codes = stats.codes.map((c) => toCodeView(c, link));
      const total = (key: 'visits' | 'signups' | 'completed' | 'credits_earned' | 'credits_pending') =>
        codes.reduce((sum, c) => sum + c[key], 0);
      return {
        visits: total('visits'),
        signups: total('signups'),
        completed: total('completed'),
        credits_earned: total('credits_earned'),
        credits_pending: total('credits_pending'),
        reward_credits: settings.rewardCredits,
        welcome_credits: settings.welcomeCredits,
        monthly_cap: settings.monthlyCap,
        settle_days: settings.settleDays,
        rewarded_this_month: stats.rewardedThisMonth,
        codes,
      };
    },
    auth,
  );

  route(
    app,
    contracts.referralsList,
    async ({ user }) => ({ referrals: (await referrals.referred(user.id)).map(toReferralView) }),
    auth,
  );

  route(
    app,
    contracts.createReferralCode,
    async (request) => {
      const { user, body } = request;
      const row = await referrals.create(
        user.id,
        { code: body.code || undefined, expiresAt: body.expires_at ? new Date(body.expires_at) : null },
        clientAddress(request),
      );
      return toCodeView({ row }, link);
    },
    auth,
  );

  route(
    app,
    contracts.toggleReferralCode,
    async ({ user, params }) => toCodeView({ row: await referrals.toggle(user.id, params.code) }, link),
    auth,
  );

  route(
    app,
    contracts.deleteReferralCode,
    async ({ user, params }) => {
      await referrals.remove(user.id, params.code);
      return { deleted: true as const };
    },
    auth,
  );

  // Per person, on top of the write limits every POST has: a loop of tracking calls meets 429s.
  const trackBudget = perMinuteBudget(app, 'referral-track', settings.trackPerMinute, (r) => r.user.id);
  route(
    app,
    contracts.trackReferral,
    async (request) => {
      const { user, query } = request;
      const { referrerName } = await referrals.track(user.id, query.referral_code, clientAddress(request));
      return { referrer_name: referrerName, welcome_credits: settings.welcomeCredits };
    },
    { preHandler: [app.requireUser, trackBudget] },
  );

  // Per address (it is public); a link visit counts at most once per address per code per hour,
  // counted in the rate-limit store so every API process agrees.
  const validateBudget = perMinuteBudget(app, 'referral-validate', settings.validatePerMinute, clientAddress);
  const visitOnce = app.createRateLimit({
    max: 1,
    timeWindow: HOUR_MS,
    keyGenerator: (request) =>
      `referral-visit:${(request.params as { code: string }).code.toLowerCase()}:${referrals.hashAddress(clientAddress(request))}`,
  });
  route(
    app,
    contracts.validateReferral,
    async (request) => {
      const result = await referrals.validate(request.params.code);
      const welcome = settings.welcomeCredits;
      if (!result.valid)
        return { valid: false, reason: result.reason, referrer_name: null, welcome_credits: welcome };
      const visit = await visitOnce(request);
      if (visit.isAllowed || !visit.isExceeded) await referrals.countVisit(result.codeId);
      return { valid: true, reason: null, referrer_name: result.referrerName, welcome_credits: welcome };
    },
    { preHandler: validateBudget },
  );

  route(
    app,
    contracts.referralCompletion,
    async ({ user, params }) => {
      const referral = await referrals.completion(user.id, params.code);
      const completed = referral?.status === 'completed' || referral?.status === 'unrewarded';
      return {
        bound: Boolean(referral),
        status: (referral?.status ?? null) as ReferralStatus | null,
        completed,
        completed_at: referral?.completedAt?.toISOString() ?? null,
        welcome_credits: referral?.welcomeReward ?? 0,
        settles_at: referral ? settlingUntil(referral) : null,
      };
    },
    auth,
  );
}
