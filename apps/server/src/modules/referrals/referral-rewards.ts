import type { Config } from '../../config.ts';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { PaymentRow, ReferralRow } from '../../db/schema/index.ts';
import type { JobQueue } from '../../queue/queue.ts';
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
  /** Schedules the end of a settling period (in the paying transaction). */
  queue: Pick<JobQueue, 'send'>;
  settings: Pick<
    Config['referrals'],
    'rewardCredits' | 'welcomeCredits' | 'monthlyCap' | 'minReferrerAgeHours' | 'settleDays'
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
const DAY_MS = 24 * HOUR_MS;
/** How many of the referrer's latest payments are read for their cards (a farm pays with one or two). */
const REFERRER_CARDS_READ = 10;

/** The first instant of the calendar month (UTC) that `at` falls in. */
export const monthStartUtc = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

/**
 * Rewards of the referral programme, driven by payments (modules/payments calls these hooks inside
 * the transaction that changes a payment, so a reward and its payment never disagree):
 *
 * - `paid`: a referred person's first payment completes their referral once. The referral row is locked
 *   and must still be `joined`, so racing crediting paths complete it once, and the referrer's row is
 *   locked so completions for one referrer run one after another (the cap and the checks below see
 *   each other). A sign-up address shared with the referrer or with another person they brought in
 *   makes it `not_eligible`: nobody is paid. Otherwise it is `settling`: the rewards are recorded but
 *   not granted until REFERRAL_SETTLE_DAYS have passed (the `referral.settle` job, sent in the same
 *   transaction). Over the referrer's monthly cap, or with a referrer account too young, the referrer's
 *   reward is 0 and the referred person still gets the welcome credits (they did nothing wrong).
 * - `settle`: the period is over: both rewards are granted through the ledger (keys
 *   `referral:<id>:referrer` / `:welcome`) and the referral is `completed` (or `unrewarded`), once.
 * - `reversed`: a refund (any part) or a dispute of that payment ends it once: within the period nothing
 *   was granted, so nothing is taken; after it, both rewards are taken back through the ledger.
 * - `committed`: after the commit, the payment's card fingerprint is read from Stripe (a network call,
 *   so never inside the crediting transaction; a failure only leaves it empty). A card the referrer or
 *   another person they brought in paid with makes the still-settling referrals sharing it
 *   `not_eligible`.
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
    const { settings } = this.deps;
    const now = this.now();
    const referrerCreatedAt = await repo.lockReferrer(tx, referral.referrerId);
    if (await repo.addressShared(tx, referral)) {
      await repo.markNotEligible(tx, referral.id, {
        paymentId: payment.id,
        completedAt: now,
        reason: 'shared_address',
      });
      // The people signed up from one address before this one and still settling are part of it too.
      const others = await repo.refuseUnpaid(
        tx,
        referral.referrerId,
        { signupIpHash: referral.signupIpHash! },
        'shared_address',
      );
      this.deps.log.info(
        { referralId: referral.id, alsoRefused: others },
        'referral not eligible: sign-up address shared with the referrer or their other referrals',
      );
      return;
    }
    const oldEnough =
      referrerCreatedAt !== undefined &&
      now.getTime() - referrerCreatedAt.getTime() >= settings.minReferrerAgeHours * HOUR_MS;
    const underCap =
      (await repo.countRewardedSince(tx, referral.referrerId, monthStartUtc(now))) < settings.monthlyCap;
    const rewarded = oldEnough && underCap;
    const settlesAt = new Date(now.getTime() + settings.settleDays * DAY_MS);
    const values = {
      paymentId: payment.id,
      referrerReward: rewarded ? settings.rewardCredits : 0,
      welcomeReward: settings.welcomeCredits,
      completedAt: now,
      settlesAt,
    };
    await repo.markSettling(tx, referral.id, values);
    if (!rewarded) {
      this.deps.log.info(
        { referralId: referral.id, oldEnough, underCap },
        'referral completed without a referrer reward',
      );
    }
    if (settings.settleDays === 0) {
      await this.grant(tx, { ...referral, ...values, status: 'settling' });
    } else {
      await this.deps.queue.send(
        'referral.settle',
        { referralId: referral.id },
        { tx, startAfter: settlesAt },
      );
    }
  }

  /**
   * The end of a referral's settling period (the `referral.settle` job). Once: the row is locked and
   * must still be settling; a refund, dispute or shared card that ended it leaves nothing to do. Run
   * before its time (a clock ahead of ours), it changes nothing and asks again at the right time.
   */
  async settle(referralId: string): Promise<void> {
    const early = await this.deps.db.transaction(async (tx) => {
      const referral = await repo.lockSettling(tx, referralId);
      if (!referral) return undefined;
      if (referral.settlesAt && referral.settlesAt.getTime() > this.now().getTime())
        return referral.settlesAt;
      await this.grant(tx, referral);
      return undefined;
    });
    if (early) await this.deps.queue.send('referral.settle', { referralId }, { startAfter: early });
  }

  /** Grants a settling referral's rewards through the ledger and marks it settled. */
  private async grant(tx: Tx, referral: ReferralRow): Promise<void> {
    const keys = rewardKeys(referral.id);
    if (referral.referrerReward > 0) {
      await this.deps.ledger.grant(
        {
          userId: referral.referrerId,
          amount: referral.referrerReward,
          reason: 'referral_reward',
          idempotencyKey: keys.referrer,
          reference: referral.id,
        },
        tx,
      );
    }
    if (referral.welcomeReward > 0) {
      await this.deps.ledger.grant(
        {
          userId: referral.referredId,
          amount: referral.welcomeReward,
          reason: 'referral_welcome',
          idempotencyKey: keys.welcome,
          reference: referral.id,
        },
        tx,
      );
    }
    await repo.markSettled(tx, referral.id, referral.referrerReward > 0 ? 'completed' : 'unrewarded');
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
    // Within the settling period nothing was granted: ending it is all there is to do.
    if (referral.status === 'settling') {
      await repo.markClawedBack(tx, referral.id, this.now());
      return;
    }
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

  /**
   * Reads and keeps the card fingerprint of each payment that completed a referral, then refuses the
   * referral (and the referrer's others still settling with that card) when the card is one the
   * referrer paid with or another person they brought in paid with. The reads from Stripe come first,
   * outside the transaction; the check runs with the referrer's row locked, so two referred people
   * paying with one card at once see each other.
   */
  async recordFingerprints(paymentIds: readonly string[]): Promise<void> {
    const { db, gateway, log } = this.deps;
    for (const { referral, paymentIntent } of await repo.findAwaitingFingerprint(db, paymentIds)) {
      if (!paymentIntent) continue;
      const fingerprint = await gateway.cardFingerprint(paymentIntent);
      if (!fingerprint) continue;
      const referrerCards = await this.cardsOf(referral.referrerId);
      await db.transaction(async (tx) => {
        await repo.lockReferrer(tx, referral.referrerId);
        await repo.saveFingerprint(tx, referral.id, fingerprint);
        if (!referrerCards.has(fingerprint) && !(await repo.cardShared(tx, referral, fingerprint))) return;
        const refused = await repo.refuseUnpaid(
          tx,
          referral.referrerId,
          { paymentFingerprint: fingerprint },
          'shared_card',
        );
        log.info(
          { referralId: referral.id, refused },
          'referral not eligible: card shared with the referrer or their other referrals',
        );
      });
    }
  }

  /** The fingerprints of the cards behind the person's latest payments (a failed read is skipped). */
  private async cardsOf(userId: string): Promise<Set<string>> {
    const intents = await repo.latestPaymentIntents(this.deps.db, userId, REFERRER_CARDS_READ);
    const cards = new Set<string>();
    for (const intent of intents) {
      const card = await this.deps.gateway.cardFingerprint(intent).catch(() => null);
      if (card) cards.add(card);
    }
    return cards;
  }
}
