import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';
import type { JobQueue } from '../../queue/queue.ts';
import type { CreditLedger } from '../credits/credit-ledger.service.ts';
import * as paymentsRepo from '../payments/payments.repository.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { PurchaseRefunds } from './purchase-pipeline.ts';
import * as repo from './purchases.repository.ts';

/**
 * `$29.00`: an amount in the currency's minor units, as people read it. The divisor is the currency's
 * own (100 for usd, 1 for jpy, 1000 for kwd), so a zero-decimal price is not shown 100× too small.
 */
export function formatMoney(amountCents: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amountCents / 10 ** digits);
}

/** The ledger reference of a purchase paid with credits. */
export const purchaseReference = (purchaseId: string) => `purchase:${purchaseId}`;

const sentence = (reason: string) => reason.trim().replace(/[.!]?$/, '.');

/**
 * Gives back what a failed purchase cost, exactly once: `failOnce` is a conditional update that only
 * one caller wins, and everything else happens in the same transaction. Credits go straight back
 * through the ledger; money paid with Stripe is refunded by a queued job (`purchase.refund`, with an
 * idempotency key, so a retry cannot refund twice); a development checkout took nothing, so it is
 * marked refunded at once.
 */
export class PurchaseRefundsService implements PurchaseRefunds {
  constructor(
    private readonly deps: {
      db: Database;
      ledger: CreditLedger;
      queue: JobQueue;
      payments: PaymentsService;
    },
  ) {}

  async fail(tx: DbOrTx, purchaseId: string, reason: string): Promise<boolean> {
    const purchase = await repo.failOnce(tx, purchaseId, reason);
    if (!purchase) return false;
    if (purchase.paidWith === 'credits') {
      await this.deps.ledger.refund(purchaseReference(purchase.id), tx as Tx);
      const n = purchase.creditsSpent ?? 0;
      await repo.setOutcome(tx, purchase.id, {
        status: 'refunded',
        error: `${sentence(reason)} Your ${n} ${n === 1 ? 'credit was' : 'credits were'} refunded.`,
      });
      return true;
    }
    const payment = purchase.paymentId ? await paymentsRepo.findById(tx, purchase.paymentId) : undefined;
    if (!payment) {
      // The payment row is gone (its person deleted): nothing to give back.
      return true;
    }
    const paid = `${sentence(reason)} Your payment of ${formatMoney(payment.amountCents, payment.currency)}`;
    if (this.deps.payments.mode === 'development') {
      await this.deps.payments.markRefunded(tx, payment);
      await repo.setOutcome(tx, purchase.id, { status: 'refunded', error: `${paid} was refunded.` });
      return true;
    }
    // Stays `failed` until the refund job has Stripe's answer, then becomes `refunded` and its words
    // change to "was refunded" (repo.markRefundedByPayment), never claiming a refund not yet made.
    await repo.setOutcome(tx, purchase.id, { status: 'failed', error: `${paid} ${repo.BEING_REFUNDED}` });
    await this.deps.queue.send(
      'purchase.refund',
      { purchaseId: purchase.id },
      { tx: tx as Tx, singletonKey: `purchase-refund:${purchase.id}` },
    );
    return true;
  }

  /**
   * The dead letter of `purchase.refund`: Stripe refused every try. The purchase stays `failed`, still
   * saying its payment is being refunded; an operator must refund it by hand, so this is an error.
   */
  async gaveUp(purchaseId: string, log: Logger): Promise<{ alerted: boolean }> {
    const purchase = await repo.findPurchase(this.deps.db, purchaseId);
    if (!purchase || purchase.status === 'refunded') return { alerted: false };
    log.error(
      { purchaseId, paymentId: purchase.paymentId },
      'purchase refund failed after every retry: refund this payment by hand in Stripe',
    );
    return { alerted: true };
  }

  /** The `purchase.refund` job: refunds the purchase's payment at Stripe, then marks it refunded. */
  async run(purchaseId: string): Promise<void> {
    const purchase = await repo.findPurchase(this.deps.db, purchaseId);
    if (!purchase?.paymentId || purchase.status === 'refunded') return;
    await this.deps.payments.refundInFull(purchase.paymentId, `purchase-refund:${purchase.id}`);
  }
}
