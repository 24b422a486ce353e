import { randomBytes, randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { CreditPackage } from '../../config.ts';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { PaymentRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { CreditLedger } from '../credits/credit-ledger.service.ts';
import type { Analytics } from '../analytics/analytics.ts';
import type { CheckoutSessionInfo, PaymentGateway } from './payments.gateway.ts';
import { toSessionInfo } from './payments.gateway.ts';
import * as repo from './payments.repository.ts';

/**
 * What one checkout sells: a credit package (credits > 0) or another product, such as a photo shoot,
 * whose payment adds no credits (credits 0). The payment row records it as bought.
 */
export interface CheckoutItem {
  productId: string;
  name: string;
  credits: number;
  amountCents: number;
  currency: string;
  stripePriceId?: string;
}

/**
 * What happens to the purchase a payment pays for (modules/products), told inside the transaction
 * that changes the payment, so the two never disagree.
 */
export interface PaymentPurchases {
  /** The payment just became paid (exactly once). */
  paid(tx: Tx, payment: PaymentRow): Promise<void>;
  /** The payments just paid, after the transaction that paid them committed (never inside it). */
  committed(paid: readonly PaymentRow[]): void;
  /** The checkout ended unpaid (expired, cancelled, failed). */
  ended(tx: DbOrTx, payment: PaymentRow): Promise<void>;
  /** The payment was refunded in full. */
  refunded(tx: DbOrTx, payment: PaymentRow): Promise<void>;
}

/**
 * The referral programme (modules/referrals), told of a person's payments: `paid` inside the
 * transaction that pays one (a first payment completes a referral), `reversed` inside the one that
 * records a refund or dispute (rewards are taken back), `committed` after the paying commit.
 */
export interface PaymentReferrals {
  paid(tx: Tx, payment: PaymentRow): Promise<void>;
  committed(paid: readonly PaymentRow[]): void;
  reversed(tx: DbOrTx, payment: PaymentRow): Promise<void>;
}

export interface PaymentsDeps {
  db: Database;
  ledger: CreditLedger;
  gateway: PaymentGateway;
  packages: readonly CreditPackage[];
  /** Where the web app lives: default success/cancel URLs, allowed redirect origins. */
  webUrl: string;
  /** Other origins success/cancel URLs may point at (the API's public URL). */
  allowedOrigins: readonly string[];
  /** How long an unpaid checkout stays open (CHECKOUT_EXPIRY_SECONDS), as a Stripe Checkout Session's `expires_at`. */
  checkoutExpirySeconds: number;
  log: Logger;
  /** Product analytics: "purchase completed" once a payment is credited (after its transaction commits). */
  analytics?: Analytics;
  /** The clock (tests move it). */
  now?: () => Date;
  /** The purchases payments pay for (modules/products). */
  purchases?: PaymentPurchases;
  /** Referral rewards a first payment earns and a reversal takes back (modules/referrals). */
  referrals?: PaymentReferrals;
}

/** Whether the billing portal can open for a person, and if not, why (in words for people). */
export interface PortalAvailability {
  available: boolean;
  reason: string | null;
}

export type ApplyOutcome = 'credited' | 'already' | 'unknown' | 'mismatch';

export interface ProcessResult {
  status: PaymentRow['status'];
  creditsAdded: number;
  balance: number;
}

const CHECKOUT_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';

/**
 * Credit purchases. One crediting path, `applyPaidSession`, serves the webhook, the success page
 * (`processPayment`) and the development checkout: a conditional pending→paid transition and the
 * ledger grant (key `payment:<session id>`) in one transaction, so however many of them race, the
 * credits land once.
 */
export class PaymentsService {
  constructor(private readonly deps: PaymentsDeps) {}

  get mode() {
    return this.deps.gateway.mode;
  }

  packages(): readonly CreditPackage[] {
    return this.deps.packages;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Development checkouts expire lazily: on every read of a person's payments, pending ones older than
   * CHECKOUT_EXPIRY_SECONDS become `expired`. Stripe expires its own sessions and tells us by webhook
   * (`checkout.session.expired`), so with Stripe nothing is expired here. The purchase an expired
   * payment was for is cancelled in the same transaction, as Stripe's expiry does (`endIfPending`).
   */
  private async expireStale(userId: string): Promise<void> {
    if (this.mode !== 'development') return;
    const cutoff = new Date(this.now().getTime() - this.deps.checkoutExpirySeconds * 1000);
    await this.deps.db.transaction(async (tx) => {
      for (const payment of await repo.expirePendingBefore(tx, cutoff, userId)) {
        await this.deps.purchases?.ended(tx, payment);
      }
    });
  }

  private packageById(id: string): CreditPackage {
    const pkg = this.deps.packages.find((p) => p.id === id);
    if (!pkg) throw new AppError('VALIDATION_FAILED', `There is no credit package "${id}".`);
    return pkg;
  }

  private checkReturnUrl(url: string | undefined, fallback: string, field: string): string {
    if (url === undefined) return fallback;
    const origin = new URL(url).origin;
    const allowed = [this.deps.webUrl, ...this.deps.allowedOrigins].map((u) => new URL(u).origin);
    if (!allowed.includes(origin)) {
      throw new AppError('VALIDATION_FAILED', `${field} must be an address on this site.`);
    }
    return url;
  }

  private async ensureCustomer(userId: string): Promise<string> {
    const existing = await repo.findCustomer(this.deps.db, userId);
    if (existing) return existing;
    const email = await repo.findUserEmail(this.deps.db, userId);
    const created = await this.deps.gateway.createCustomer({ userId, email });
    return repo.saveCustomer(this.deps.db, userId, created);
  }

  /** A credit package as what a checkout sells. */
  packageItem(packageId: string): CheckoutItem {
    const pkg = this.packageById(packageId);
    return {
      productId: pkg.id,
      name: pkg.name,
      credits: pkg.credits,
      amountCents: pkg.priceCents,
      currency: pkg.currency,
      ...(pkg.stripePriceId ? { stripePriceId: pkg.stripePriceId } : {}),
    };
  }

  /**
   * The one checkout path, for every product: a Checkout Session and its pending payment row; returns
   * where to send the browser. `within` adds rows that belong to the payment (a product's purchase) in
   * the transaction that stores it. Given return URLs must be on this site; `defaults` are used
   * otherwise (the credits page unless told).
   */
  async startCheckout(
    userId: string,
    input: {
      item: CheckoutItem;
      successUrl?: string;
      cancelUrl?: string;
      defaults?: { successUrl: string; cancelUrl: string };
      within?: (tx: Tx, payment: PaymentRow) => Promise<void>;
    },
  ): Promise<{ url: string; sessionId: string; paymentId: string }> {
    const { item } = input;
    const successUrl = this.checkReturnUrl(
      input.successUrl,
      input.defaults?.successUrl ?? `${this.deps.webUrl}/credits/success?session_id=${CHECKOUT_PLACEHOLDER}`,
      'success_url',
    );
    const cancelUrl = this.checkReturnUrl(
      input.cancelUrl,
      input.defaults?.cancelUrl ?? `${this.deps.webUrl}/credits?checkout=cancelled`,
      'cancel_url',
    );
    const customerId = await this.ensureCustomer(userId);
    const paymentId = randomUUID();
    // What is bought, as the gateway shows it and as the payment records it.
    const purchase = {
      packageId: item.productId,
      packageName: item.name,
      credits: item.credits,
      amountCents: item.amountCents,
      currency: item.currency,
    };
    const session = await this.deps.gateway.createCheckoutSession({
      paymentId,
      userId,
      ...purchase,
      stripePriceId: item.stripePriceId,
      customerId,
      successUrl,
      cancelUrl,
      expiresAt: new Date(this.now().getTime() + this.deps.checkoutExpirySeconds * 1000),
    });
    await this.deps.db.transaction(async (tx) => {
      const payment = await repo.insertPayment(tx, {
        id: paymentId,
        userId,
        ...purchase,
        stripeSessionId: session.id,
        stripeCustomerId: customerId,
        successUrl,
        cancelUrl,
      });
      await input.within?.(tx, payment);
    });
    return { url: session.url, sessionId: session.id, paymentId };
  }

  /**
   * Credits a paid session once. The amount, currency, package and user must match the payment row
   * made at checkout; a mismatch is logged and credits nothing.
   */
  async applyPaidSession(
    tx: Tx,
    session: CheckoutSessionInfo,
    credited: PaymentRow[] = [],
  ): Promise<ApplyOutcome> {
    const payment = await repo.findBySession(tx, session.id);
    if (!payment) {
      this.deps.log.warn({ sessionId: session.id }, 'stripe: paid session with no payment row; ignored');
      return 'unknown';
    }
    const problems = [
      session.clientReferenceId !== payment.userId && 'client_reference_id',
      session.amountTotal !== payment.amountCents && 'amount_total',
      (session.currency ?? '').toLowerCase() !== payment.currency && 'currency',
      session.metadata.package_id !== undefined &&
        session.metadata.package_id !== payment.packageId &&
        'package',
    ].filter(Boolean);
    if (problems.length > 0) {
      this.deps.log.error(
        { sessionId: session.id, paymentId: payment.id, problems },
        'stripe: paid session does not match its payment; not credited',
      );
      return 'mismatch';
    }
    const paid = await repo.markPaidIfPending(tx, payment.id, {
      paymentIntent: session.paymentIntent,
      customerId: session.customer,
    });
    if (!paid) return 'already';
    // A photo shoot's payment adds no credits; its purchase starts instead (below).
    if (payment.credits > 0) {
      await this.deps.ledger.grant(
        {
          userId: payment.userId,
          amount: payment.credits,
          reason: 'purchase',
          idempotencyKey: `payment:${session.id}`,
          reference: payment.id,
        },
        tx,
      );
    }
    await this.deps.purchases?.paid(tx, paid);
    await this.deps.referrals?.paid(tx, paid);
    credited.push(payment);
    return 'credited';
  }

  /** The success page: confirm with Stripe and credit now if the webhook has not yet. */
  async processPayment(userId: string, sessionId: string): Promise<ProcessResult> {
    await this.expireStale(userId);
    let payment = await repo.findUserPaymentBySession(this.deps.db, userId, sessionId);
    if (!payment) throw notFound('This checkout');
    if (payment.status === 'pending') {
      const session = await this.deps.gateway.retrieveCheckoutSession(sessionId);
      if (session && (session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required')) {
        const credited: PaymentRow[] = [];
        await this.deps.db.transaction((tx) => this.applyPaidSession(tx, session, credited));
        this.reportCredited(credited);
        payment = (await repo.findUserPaymentBySession(this.deps.db, userId, sessionId))!;
      }
    }
    return {
      status: payment.status,
      creditsAdded: payment.status === 'paid' || payment.status === 'refunded' ? payment.credits : 0,
      balance: await this.deps.ledger.balance(userId),
    };
  }

  /**
   * The Stripe Billing portal needs Stripe and a Stripe customer (made at a person's first checkout).
   * Without either there is nothing to manage, and the page says so instead of offering a button.
   */
  async portalAvailability(userId: string): Promise<PortalAvailability> {
    if (this.mode === 'development') {
      return {
        available: false,
        reason:
          'Billing is managed in Stripe, and this server takes payments without Stripe (development checkout). Your payments and receipts are listed on this page.',
      };
    }
    if (!(await repo.findCustomer(this.deps.db, userId))) {
      return {
        available: false,
        reason: 'There is no billing account yet: it is made with your first purchase.',
      };
    }
    return { available: true, reason: null };
  }

  async portalUrl(userId: string): Promise<string> {
    const availability = await this.portalAvailability(userId);
    if (!availability.available) throw new AppError('CONFLICT', availability.reason!);
    const customerId = (await repo.findCustomer(this.deps.db, userId))!;
    return this.deps.gateway.createPortalSession(customerId, `${this.deps.webUrl}/credits`);
  }

  /**
   * The user's payments. A paid one without a receipt link gets it from Stripe (the charge's receipt)
   * the first time it is listed, and keeps it; a Stripe hiccup just leaves it empty for now.
   */
  async transactions(userId: string, limit: number): Promise<PaymentRow[]> {
    await this.expireStale(userId);
    const rows = await repo.listForUser(this.deps.db, userId, limit);
    return Promise.all(
      rows.map(async (row) => {
        if (row.status !== 'paid' || row.receiptUrl || !row.stripePaymentIntent) return row;
        const receiptUrl = await this.deps.gateway.receiptUrl(row.stripePaymentIntent).catch(() => null);
        if (!receiptUrl) return row;
        await repo.saveReceiptUrl(this.deps.db, row.id, receiptUrl);
        return { ...row, receiptUrl };
      }),
    );
  }

  /**
   * A Stripe webhook delivery: verified against the raw body, then applied at most once per event id.
   * The event id is recorded in the same transaction that applies it, so a failure lets Stripe retry.
   */
  async handleWebhook(rawBody: Buffer | string, signature: string | undefined): Promise<void> {
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('missing signature');
      event = this.deps.gateway.constructEvent(rawBody, signature);
    } catch {
      throw new AppError('VALIDATION_FAILED', 'The webhook signature is not valid.');
    }
    const credited: PaymentRow[] = [];
    await this.deps.db.transaction(async (tx) => {
      if (!(await repo.claimEvent(tx, event.id, event.type))) return;
      await this.applyEvent(tx, event, credited);
    });
    this.reportCredited(credited);
  }

  /** Told only after the crediting transaction committed, so a rolled-back credit is never reported. */
  private reportCredited(credited: readonly PaymentRow[]): void {
    for (const payment of credited) this.deps.analytics?.purchaseCompleted(payment);
    if (credited.length > 0) {
      this.deps.purchases?.committed(credited);
      this.deps.referrals?.committed(credited);
    }
  }

  private async applyEvent(tx: Tx, event: Stripe.Event, credited: PaymentRow[]): Promise<void> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = toSessionInfo(event.data.object);
        // An unpaid completion is a delayed method (bank debit): stays pending until async_payment_*.
        if (session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required') {
          await this.applyPaidSession(tx, session, credited);
        }
        return;
      }
      case 'checkout.session.async_payment_failed':
        await this.endIfPending(tx, event.data.object.id, 'failed');
        return;
      case 'checkout.session.expired':
        // Abandoned at Checkout: nothing was paid, so it leaves "pending" for good.
        await this.endIfPending(tx, event.data.object.id, 'expired');
        return;
      case 'charge.refunded':
        await this.applyRefund(tx, event.data.object);
        return;
      case 'charge.dispute.created':
        await this.applyDispute(tx, event.data.object);
        return;
      default:
        // Acknowledged and ignored.
        return;
    }
  }

  private async endIfPending(
    tx: DbOrTx,
    sessionId: string,
    status: 'failed' | 'cancelled' | 'expired',
  ): Promise<boolean> {
    const payment = await repo.findBySession(tx, sessionId);
    if (!payment || !(await repo.markEndedIfPending(tx, payment.id, status))) return false;
    await this.deps.purchases?.ended(tx, payment);
    return true;
  }

  /**
   * Refunds a paid payment in full at Stripe (a failed photo shoot). `idempotencyKey` makes a retry
   * return the same refund. The payment is marked refunded here; Stripe's `charge.refunded` event that
   * follows finds it so and changes nothing more.
   */
  async refundInFull(paymentId: string, idempotencyKey: string): Promise<void> {
    const payment = await repo.findById(this.deps.db, paymentId);
    if (!payment || payment.status === 'refunded') return;
    if (payment.status !== 'paid') throw new Error(`payment ${paymentId} is ${payment.status}, not paid`);
    if (this.mode === 'stripe') {
      if (!payment.stripePaymentIntent) throw new Error(`payment ${paymentId} has no payment intent`);
      await this.deps.gateway.refund(payment.stripePaymentIntent, idempotencyKey);
    }
    await this.deps.db.transaction((tx) => this.markRefunded(tx, payment));
  }

  /**
   * Records a full refund of a payment (no credits taken back: the caller refunds a product without
   * any). Referral rewards the payment earned are taken back.
   */
  async markRefunded(tx: DbOrTx, payment: PaymentRow): Promise<void> {
    await repo.recordRefund(tx, payment.id, {
      refundedCents: payment.amountCents,
      clawedBackCredits: payment.clawedBackCredits,
      fullyRefunded: true,
      receiptUrl: null,
    });
    await this.deps.purchases?.refunded(tx, payment);
    await this.deps.referrals?.reversed(tx, payment);
  }

  /**
   * A dispute (chargeback) opened on a payment's charge: the referral rewards it earned are taken back
   * at once. The money itself is settled by the dispute, so the payment row is left as it is.
   */
  private async applyDispute(tx: Tx, dispute: Stripe.Dispute): Promise<void> {
    const intent =
      typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
    const payment = intent ? await repo.lockByPaymentIntent(tx, intent) : undefined;
    if (!payment) {
      this.deps.log.warn({ paymentIntent: intent ?? null }, 'stripe: dispute for no known payment; ignored');
      return;
    }
    await this.deps.referrals?.reversed(tx, payment);
  }

  /**
   * Takes back credits in proportion to the newly refunded amount (all of them on a full refund). The
   * balance may go negative here, and only here: the money went back.
   */
  private async applyRefund(tx: Tx, charge: Stripe.Charge): Promise<void> {
    const intent =
      typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
    if (!intent) return;
    const payment = await repo.lockByPaymentIntent(tx, intent);
    if (!payment || (payment.status !== 'paid' && payment.status !== 'refunded')) {
      this.deps.log.warn({ paymentIntent: intent }, 'stripe: refund for no paid payment; ignored');
      return;
    }
    const fully = charge.refunded || charge.amount_refunded >= charge.amount;
    const target = fully
      ? payment.credits
      : Math.min(payment.credits, Math.floor((payment.credits * charge.amount_refunded) / charge.amount));
    const delta = target - payment.clawedBackCredits;
    if (delta > 0) {
      await this.deps.ledger.clawback(
        {
          userId: payment.userId,
          amount: delta,
          reason: 'clawback',
          idempotencyKey: `clawback:${payment.stripeSessionId}:${target}`,
          reference: payment.id,
        },
        tx,
      );
    }
    await repo.recordRefund(tx, payment.id, {
      refundedCents: Math.max(charge.amount_refunded, payment.refundedCents),
      clawedBackCredits: Math.max(target, payment.clawedBackCredits),
      fullyRefunded: fully,
      receiptUrl: charge.receipt_url ?? null,
    });
    if (fully) await this.deps.purchases?.refunded(tx, payment);
    // Any refund, even in part, takes the referral rewards back whole (they are not divisible).
    if (charge.amount_refunded > 0) await this.deps.referrals?.reversed(tx, payment);
  }

  // --- Development checkout (no STRIPE_SECRET_KEY; never in production) ---

  private async devPayment(userId: string, sessionId: string): Promise<PaymentRow> {
    if (this.mode !== 'development') throw notFound('This checkout');
    await this.expireStale(userId);
    const payment = await repo.findUserPaymentBySession(this.deps.db, userId, sessionId);
    if (!payment) throw notFound('This checkout');
    return payment;
  }

  async devSession(userId: string, sessionId: string): Promise<PaymentRow> {
    return this.devPayment(userId, sessionId);
  }

  /** Pays a development session: a locally signed checkout.session.completed through `handleWebhook`. */
  async devComplete(
    userId: string,
    sessionId: string,
  ): Promise<{ status: PaymentRow['status']; redirectUrl: string }> {
    const payment = await this.devPayment(userId, sessionId);
    if (payment.status === 'expired') {
      throw new AppError(
        'CONFLICT',
        'This checkout has expired and can no longer be paid. Choose a package again to start a new one.',
      );
    }
    if (payment.status === 'pending') {
      const payload = JSON.stringify({
        id: `evt_dev_${randomBytes(12).toString('hex')}`,
        object: 'event',
        type: 'checkout.session.completed',
        api_version: null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 0,
        request: { id: null, idempotency_key: null },
        data: {
          object: {
            id: payment.stripeSessionId,
            object: 'checkout.session',
            mode: 'payment',
            status: 'complete',
            payment_status: 'paid',
            amount_total: payment.amountCents,
            currency: payment.currency,
            client_reference_id: payment.userId,
            metadata: {
              payment_id: payment.id,
              package_id: payment.packageId,
              credits: String(payment.credits),
            },
            payment_intent: `pi_dev_${randomBytes(12).toString('hex')}`,
            customer: payment.stripeCustomerId,
          },
        },
      });
      await this.handleWebhook(payload, this.deps.gateway.sign(payload));
    }
    const after = await this.devPayment(userId, sessionId);
    return { status: after.status, redirectUrl: after.successUrl.replace(CHECKOUT_PLACEHOLDER, sessionId) };
  }

  async devCancel(
    userId: string,
    sessionId: string,
  ): Promise<{ status: PaymentRow['status']; redirectUrl: string }> {
    const payment = await this.devPayment(userId, sessionId);
    const cancelled = await this.deps.db.transaction((tx) =>
      this.endIfPending(tx, payment.stripeSessionId, 'cancelled'),
    );
    return { status: cancelled ? 'cancelled' : payment.status, redirectUrl: payment.cancelUrl };
  }
}
