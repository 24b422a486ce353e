import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { payments, stripeCustomers, stripeEvents, users, type PaymentRow } from '../../db/schema/index.ts';

/** Drizzle queries for payments; each takes the database or an open transaction. */

export type NewPayment = typeof payments.$inferInsert;

export async function insertPayment(db: DbOrTx, row: NewPayment): Promise<PaymentRow> {
  const [inserted] = await db.insert(payments).values(row).returning();
  return inserted!;
}

export async function findById(db: DbOrTx, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function findBySession(db: DbOrTx, sessionId: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.stripeSessionId, sessionId));
  return row;
}

export async function findUserPaymentBySession(
  db: DbOrTx,
  userId: string,
  sessionId: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.stripeSessionId, sessionId), eq(payments.userId, userId)));
  return row;
}

/** Locks the payment row for the rest of the transaction (refund bookkeeping). */
export async function lockByPaymentIntent(
  db: DbOrTx,
  paymentIntent: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(eq(payments.stripePaymentIntent, paymentIntent))
    .for('update');
  return row;
}

/**
 * The one transition to `paid`: conditional on the row still being pending, so of any number of
 * concurrent callers (webhook deliveries, the success page) exactly one gets the row back.
 */
export async function markPaidIfPending(
  db: DbOrTx,
  id: string,
  details: { paymentIntent: string | null; customerId: string | null },
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .update(payments)
    .set({
      status: 'paid',
      paidAt: sql`now()`,
      updatedAt: sql`now()`,
      stripePaymentIntent: sql`coalesce(${details.paymentIntent}, ${payments.stripePaymentIntent})`,
      stripeCustomerId: sql`coalesce(${details.customerId}, ${payments.stripeCustomerId})`,
    })
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')))
    .returning();
  return row;
}

export async function markEndedIfPending(
  db: DbOrTx,
  id: string,
  status: 'failed' | 'cancelled' | 'expired',
): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({ status, updatedAt: sql`now()` })
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')))
    .returning({ id: payments.id });
  return rows.length > 0;
}

export async function recordRefund(
  db: DbOrTx,
  id: string,
  values: {
    refundedCents: number;
    clawedBackCredits: number;
    fullyRefunded: boolean;
    receiptUrl: string | null;
  },
): Promise<void> {
  await db
    .update(payments)
    .set({
      refundedCents: values.refundedCents,
      clawedBackCredits: values.clawedBackCredits,
      ...(values.fullyRefunded ? { status: 'refunded' as const } : {}),
      receiptUrl: sql`coalesce(${values.receiptUrl}, ${payments.receiptUrl})`,
      updatedAt: sql`now()`,
    })
    .where(eq(payments.id, id));
}

/**
 * Development checkouts left pending past their expiry become `expired`, as Stripe expires an abandoned
 * Checkout Session (STRIPE sends `checkout.session.expired` for real ones). One conditional UPDATE, so
 * it is safe to run on every read and from any number of processes; `userId` narrows it to one person.
 */
export async function expirePendingBefore(db: DbOrTx, cutoff: Date, userId?: string): Promise<PaymentRow[]> {
  return db
    .update(payments)
    .set({ status: 'expired', updatedAt: sql`now()` })
    .where(
      and(
        eq(payments.status, 'pending'),
        lt(payments.createdAt, cutoff),
        userId === undefined ? undefined : eq(payments.userId, userId),
      ),
    )
    .returning();
}

export async function listForUser(db: DbOrTx, userId: string, limit: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}

/** Records an event id; false when it was already recorded (so the event must not be applied again). */
export async function claimEvent(db: DbOrTx, id: string, type: string): Promise<boolean> {
  const rows = await db
    .insert(stripeEvents)
    .values({ id, type })
    .onConflictDoNothing({ target: stripeEvents.id })
    .returning({ id: stripeEvents.id });
  return rows.length > 0;
}

export async function findCustomer(db: DbOrTx, userId: string): Promise<string | undefined> {
  const [row] = await db.select().from(stripeCustomers).where(eq(stripeCustomers.userId, userId));
  return row?.customerId;
}

/** Stores the user's customer unless one is already stored; returns the stored one. */
export async function saveCustomer(db: DbOrTx, userId: string, customerId: string): Promise<string> {
  await db.insert(stripeCustomers).values({ userId, customerId }).onConflictDoNothing();
  return (await findCustomer(db, userId)) ?? customerId;
}

export async function findUserEmail(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

export async function saveReceiptUrl(db: DbOrTx, id: string, receiptUrl: string): Promise<void> {
  await db
    .update(payments)
    .set({ receiptUrl, updatedAt: sql`now()` })
    .where(and(eq(payments.id, id), isNull(payments.receiptUrl)));
}
