import type { DbOrTx } from '../../db/client.ts';
import type { PurchaseRow } from '../../db/schema/index.ts';

/**
 * The seam between buying (products.service.ts: checkout, payment, credits, refunds) and delivering
 * (shoot-pipeline.ts: training, generating, delivering a photo shoot through the job pipeline). Each
 * side calls the other only inside a transaction it already holds, so a stage change and its cause
 * commit together and a crash resumes where it was.
 */

/** Delivers a paid photo shoot. */
export interface ShootPipeline {
  /**
   * A purchase was just paid (money confirmed once, or credits charged) or given its photos: start its
   * next stage in `tx`: `waiting_for_photos` when it has no usable set, else the training job.
   * Safe to call again for a purchase already past that point (it does nothing).
   */
  start(tx: DbOrTx, purchase: PurchaseRow): Promise<void>;
}

/**
 * Called once the transaction that called `start` has committed (never inside it): wakes the queue so
 * a training queued there starts now rather than at the next poll, and tells the buyer's progress
 * streams, which would otherwise read the state from before the commit.
 */
export type ShootStarted = (userId: string) => void;

/** Gives back what a failed purchase cost, exactly once, and says so. */
export interface PurchaseRefunds {
  /**
   * Fails the purchase with `reason` (words for people, e.g. "Training failed: …") and refunds it in
   * `tx`: credits straight back through the ledger; money by a queued Stripe refund (idempotent) or,
   * with the development checkout, marked refunded. A purchase already failed or refunded is left as
   * it is (returns false), so concurrent failures refund once.
   */
  fail(tx: DbOrTx, purchaseId: string, reason: string): Promise<boolean>;
}
