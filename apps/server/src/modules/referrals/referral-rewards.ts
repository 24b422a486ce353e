import type { Config } from '../../config.ts';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { PaymentRow } from '../../db/schema/index.ts';
import type { Logger } from '../../logger.ts';
import type { CreditLedger } from '../credits/credit-ledger.service.ts';
import type { PaymentGateway } from '../payments/payments.gateway.ts';
import type { PaymentReferrals } from '../payments/payments.service.ts';
import * as repo from './referral-rewards.repository.ts';

export interface ReferralRewardsDeps {
  db: Database;
  ledger: CreditLedger;
  /** Reads the card fingerprint of a completing payment. */
  gateway: PaymentGateway;
  settings: Pick<
    Config['referrals'],
    'rewardCredits' | 'welcomeCredits' | 'monthlyCap' | 'minReferrerAgeHours'
  >;
  log: Logger;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** The ledger keys of a referral's rewards, and of taking them back. */
export const rewardKeys = (referralId: string) => ({
  referrer: `referral:${referralId}:referrer`,
  welcome: `referral:${referralId}:welcome`,
  referrerClawback: `referral:${referralId}:referrer:clawback`,
  welcomeClawback: `referral:${referralId}:welcome:clawback`,
});

const HOUR_MS = 3_600_000;

/** The first instant of the calendar month (UTC) that `at` falls in. */
export const monthStartUtc = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

/**
 * Rewards of the referral programme, driven by payments (modules/payments calls these hooks inside
 * the transaction that changes a payment, so a reward and its payment never disagree):
 *
 * - `paid`: a referred person's first payment completes their referral once: both people are credited
 *   through the ledger (keys `referral:<id>:referrer` / `:welcome`). The referral row is locked and
 *   must still be `joined`, so racing crediting paths complete it once. Over the referrer's monthly cap,
 *   or with a referrer account too young, it is `unrewarded`: the referred person still gets the
 *   welcome credits (they did nothing wrong), the referrer nothing.
 * - `reversed`: a refund (any part) or a dispute of that payment takes both rewards back once.
 * - `committed`: after the commit, the payment's card fingerprint is read from Stripe and kept as an
 *   abuse signal. It is a network call, so never inside the crediting transaction; a failure only
 *   leaves it empty.
 */
export class ReferralRewards implements PaymentReferrals {
  constructor(private readonly deps: ReferralRewardsDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async paid(tx: Tx, payment: PaymentRow): Promise<void> {
    const referral = await repo.lockJoined(tx, payment.userId);
    if (!referral) return;
    if (await repo.hasPaidPayment(tx, payment.userId, payment.id)) return;
    const { settings, ledger } = this.deps;
    const now = this.now();
    const referrerCreatedAt = await repo.lockReferrer(tx, referral.referrerId);
    const oldEnough =
      referrerCreatedAt !== undefined &&
      now.getTime() - referrerCreatedAt.getTime() >= settings.minReferrerAgeHours * HOUR_MS;
    const underCap =
      (await repo.countRewardedSince(tx, referral.referrerId, monthStartUtc(now))) < settings.monthlyCap;
    const rewarded = oldEnough && underCap;
    const referrerReward = rewarded ? settings.rewardCredits : 0;
    const welcomeReward = settings.welcomeCredits;
    const keys = rewardKeys(referral.id);
    if (referrerReward > 0) {
      await ledger.grant(
        {
          userId: referral.referrerId,
          amount: referrerReward,
          reason: 'referral_reward',
          idempotencyKey: keys.referrer,
          reference: referral.id,
        },
        tx,
      );
    }
    if (welcomeReward > 0) {
      await ledger.grant(
        {
          userId: referral.referredId,
          amount: welcomeReward,
          reason: 'referral_welcome',
          idempotencyKey: keys.welcome,
          reference: referral.id,
        },
        tx,
      );
    }
    await repo.markCompleted(tx, referral.id, {
      status: rewarded ? 'completed' : 'unrewarded',
      paymentId: payment.id,
      referrerReward,
      welcomeReward,
      completedAt: now,
    });
    if (!rewarded) {
      this.deps.log.info(
        { referralId: referral.id, oldEnough, underCap },
        'referral completed without a referrer reward',
      );
    }
  }

  /**
   * The one way rewards are taken back, whatever reversed the payment (Stripe's refund or dispute
   * event, or our own refund of a failed shoot). Once: the row is locked and leaves `completed` /
   * `unrewarded` for good, and the ledger keys refuse a second entry anyway. Balances may go below
   * zero here, as with a purchase's clawback: rewards already spent cannot be un-spent.
   */
  async reversed(tx: DbOrTx, payment: PaymentRow): Promise<void> {
    const referral = await repo.lockRewardedByPayment(tx, payment.id);
    if (!referral) return;
    const keys = rewardKeys(referral.id);
    if (referral.referrerReward > 0) {
      await this.deps.ledger.clawback(
        {
          userId: referral.referrerId,
          amount: referral.referrerReward,
          reason: 'referral_clawback',
          idempotencyKey: keys.referrerClawback,
          reference: referral.id,
        },
        tx as Tx,
      );
    }
    if (referral.welcomeReward > 0) {
      await this.deps.ledger.clawback(
        {
          userId: referral.referredId,
          amount: referral.welcomeReward,
          reason: 'referral_clawback',
          idempotencyKey: keys.welcomeClawback,
          reference: referral.id,
        },
        tx as Tx,
      );
    }
    await repo.markClawedBack(tx, referral.id, this.now());
  }

  committed(paid: readonly PaymentRow[]): void {
    // The development checkout takes no card: there is nothing to read.
    if (this.deps.gateway.mode === 'development') return;
    void this.recordFingerprints(paid.map((p) => p.id)).catch((err: unknown) =>
      this.deps.log.warn({ err }, 'referrals: could not record payment fingerprints'),
    );
  }

  /** Reads and keeps the card fingerprint of each payment that completed a referral. */
  async recordFingerprints(paymentIds: readonly string[]): Promise<void> {
    for (const row of await repo.findAwaitingFingerprint(this.deps.db, paymentIds)) {
      if (!row.paymentIntent) continue;
      const fingerprint = await this.deps.gateway.cardFingerprint(row.paymentIntent);
      if (fingerprint) await repo.saveFingerprint(this.deps.db, row.id, fingerprint);
    }
  }
}
