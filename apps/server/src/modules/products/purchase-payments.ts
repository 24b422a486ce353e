import type { DbOrTx, Tx } from '../../db/client.ts';
import type { PaymentRow } from '../../db/schema/index.ts';
import type { PaymentPurchases } from '../payments/payments.service.ts';
import type { ShootPipeline, ShootStarted } from './purchase-pipeline.ts';
import * as repo from './purchases.repository.ts';

/**
 * What a payment's changes do to the purchase it pays for, inside the payment's own transaction
 * (PaymentsService calls these from `applyPaidSession`, which the webhook, the success page and the
 * development checkout all go through, once). A payment without a purchase (a credit package bought
 * on the credits page) is left alone.
 */
export class PurchasePayments implements PaymentPurchases {
  /** The pipeline is given late: it is built after payments (it refunds through them). */
  constructor(
    private readonly pipeline: () => ShootPipeline,
    private readonly started: ShootStarted,
  ) {}

  async paid(tx: Tx, payment: PaymentRow): Promise<void> {
    const purchase = await repo.markPaid(tx, payment.id);
    // A credit package is ready once paid (its credits were granted with the payment).
    if (purchase && purchase.kind === 'photo_shoot') await this.pipeline().start(tx, purchase);
  }

  /** After the paying transaction committed: a shoot started there starts running now. */
  committed(paid: readonly PaymentRow[]): void {
    for (const payment of paid) this.started(payment.userId);
  }

  async ended(tx: DbOrTx, payment: PaymentRow): Promise<void> {
    await repo.cancelIfPending(tx, payment.id);
  }

  async refunded(tx: DbOrTx, payment: PaymentRow): Promise<void> {
    await repo.markRefundedByPayment(tx, payment.id);
  }
}
