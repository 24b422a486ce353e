import { randomUUID } from 'node:crypto';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { TestEnv } from '../../../test/harness.ts';
import { eventually, ledgerOf, type Client } from '../../../test/support/api.ts';
import type { Tx } from '../../db/client.ts';
import { jobs, purchases, type JobRow, type PurchaseRow } from '../../db/schema/index.ts';
import type { PhotoShootProduct } from './product-catalogue.ts';
import type { PurchaseRefunds } from './purchase-pipeline.ts';

/** A small photo shoot: 2 prompts × 2 images, so a whole delivery takes seconds on the local engine. */
export const SMALL_SHOOT: PhotoShootProduct = {
  id: 'tiny-shoot',
  kind: 'photo_shoot',
  name: 'Tiny shoot',
  description: 'Two prompts, two images each.',
  covers: [],
  priceCredits: 30,
  shoot: {
    subject: 'person',
    prompts: [
      { prompt: 'studio portrait of {trigger}, grey backdrop', count: 2, aspectRatio: '3:4' },
      { prompt: 'outdoor photo of {trigger} at golden hour', count: 2, aspectRatio: '1:1' },
    ],
  },
};

/** PRODUCTS_JSON for test configs: the small shoot as the only product. */
export const SMALL_SHOOT_JSON = JSON.stringify([SMALL_SHOOT]);

/**
 * A stand-in for the buying side's PurchaseRefunds (engineer A1's purchase-refunds.ts) until the two
 * are merged: fails the purchase once (the same guard: not already failed or refunded) and gives the
 * credits charged under `purchase:<id>` back through the real ledger in the same transaction.
 */
export function refundsDouble(env: TestEnv): PurchaseRefunds & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async fail(tx, purchaseId, reason) {
      calls.push(reason);
      const [row] = await tx
        .update(purchases)
        .set({ status: 'refunded', error: reason, refundedAt: new Date(), updatedAt: sql`now()` })
        .where(and(eq(purchases.id, purchaseId), notInArray(purchases.status, ['failed', 'refunded'])))
        .returning();
      if (!row) return false;
      await env.container.services.ledger.refund(`purchase:${purchaseId}`, tx as Tx);
      return true;
    },
  };
}

/**
 * A photo shoot bought with credits the way the buying side does it: the charge (`purchase:<id>`) and
 * the purchase row, then the pipeline's `start` in the same transaction.
 */
export async function buyShoot(
  env: TestEnv,
  client: Client,
  options: { setId?: string | null; product?: PhotoShootProduct } = {},
): Promise<PurchaseRow> {
  const product = options.product ?? SMALL_SHOOT;
  const { db } = env.container.database;
  const { ledger, products } = env.container.services;
  const id = randomUUID();
  return db.transaction(async (tx) => {
    await ledger.spend(
      {
        userId: client.userId,
        amount: product.priceCredits!,
        reference: `purchase:${id}`,
        reason: 'purchase',
      },
      tx,
    );
    const [row] = await tx
      .insert(purchases)
      .values({
        id,
        userId: client.userId,
        productId: product.id,
        kind: 'photo_shoot',
        product: product as unknown as Record<string, unknown>,
        status: 'pending_payment',
        paidWith: 'credits',
        creditsSpent: product.priceCredits!,
        setId: options.setId ?? null,
        paidAt: new Date(),
      })
      .returning();
    await products.pipeline.start(tx, row!);
    return row!;
  });
}

export async function purchaseRow(env: TestEnv, id: string): Promise<PurchaseRow> {
  const [row] = await env.container.database.db.select().from(purchases).where(eq(purchases.id, id));
  return row!;
}

/** Waits until the purchase reaches `status`. */
export const waitForPurchase = (env: TestEnv, id: string, status: string, timeoutMs = 120_000) =>
  eventually(
    async () => {
      const row = await purchaseRow(env, id);
      return row.status === status ? row : undefined;
    },
    timeoutMs,
    `purchase ${id} to be ${status}`,
  );

/** The jobs a purchase made, oldest first. */
export const purchaseJobs = (env: TestEnv, id: string): Promise<JobRow[]> =>
  env.container.database.db.select().from(jobs).where(eq(jobs.purchaseId, id)).orderBy(jobs.createdAt);

/** The ledger amounts under the purchase's reference (its charge, then any refund), in order. */
export async function purchaseCharges(env: TestEnv, client: Client, id: string) {
  return (await ledgerOf(env, client.userId))
    .filter((e) => e.reference === `purchase:${id}`)
    .map((e) => e.amount);
}

/** The emails the dev mailbox holds for `to` whose subject says a photo shoot is ready. */
export const readyEmails = (env: TestEnv, to: string) =>
  (env.container.services.auth.mailbox?.list({ to }) ?? []).filter((m) =>
    m.subject.startsWith('Your photo shoot is ready'),
  );
