import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { CreditLedgerRow } from '../../db/schema/index.ts';
import { AppError, insufficientCredits } from '../../errors.ts';
import * as repo from './credits.repository.ts';

export interface LedgerResult {
  entry: CreditLedgerRow;
  /** True when this call found the entry already written (a retry), and changed nothing. */
  replayed: boolean;
}

/** Thrown inside a transaction to roll back a write that lost an idempotency race. */
class AlreadyApplied extends Error {}

const spendKey = (reference: string) => `spend:${reference}`;
const refundKey = (reference: string) => `refund:${reference}`;

function assertWholePositive(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new AppError('VALIDATION_FAILED', 'A credit amount must be a whole number greater than zero.');
  }
}

/**
 * The credit ledger: the only code that writes credits. Every write is an appended entry with an
 * idempotency key plus the matching balance change, in one transaction. Callers that already hold a
 * transaction (a job being enqueued with its charge) pass it, so the charge commits or rolls back with
 * their rows.
 */
export class CreditLedger {
  constructor(private readonly db: Database) {}

  balance(userId: string, db: DbOrTx = this.db): Promise<number> {
    return repo.readBalance(db, userId);
  }

  /**
   * Takes `amount` credits for `reference` (a job id, say). Never takes a balance below zero, even
   * under concurrent calls; throws INSUFFICIENT_CREDITS instead. Spending the same reference twice
   * charges once. `fresh`: the caller has just made the reference (a new job's id), so there is no
   * earlier entry to replay and the lookup for one is skipped; a duplicate still cannot charge twice
   * (the unique idempotency key refuses the second entry and its transaction rolls back).
   */
  async spend(
    input: { userId: string; amount: number; reference: string; reason?: string; fresh?: boolean },
    tx?: Tx,
  ): Promise<LedgerResult> {
    assertWholePositive(input.amount);
    const key = spendKey(input.reference);
    return this.write(key, tx, { lookUp: !input.fresh }, async (t) => {
      const after = await repo.debitIfCovered(t, input.userId, input.amount);
      if (after === undefined)
        throw insufficientCredits(input.amount, await repo.readBalance(t, input.userId));
      return repo.appendEntry(t, {
        userId: input.userId,
        amount: -input.amount,
        balanceAfter: after,
        reason: input.reason ?? 'spend',
        reference: input.reference,
        idempotencyKey: key,
      });
    });
  }

  /** Adds credits once per idempotency key (welcome credits, purchases, rewards). */
  async grant(
    input: { userId: string; amount: number; reason: string; idempotencyKey: string; reference?: string },
    tx?: Tx,
  ): Promise<LedgerResult> {
    assertWholePositive(input.amount);
    return this.write(input.idempotencyKey, tx, { lookUp: true }, async (t) => {
      const after = await repo.applyDelta(t, input.userId, input.amount);
      return repo.appendEntry(t, {
        userId: input.userId,
        amount: input.amount,
        balanceAfter: after,
        reason: input.reason,
        reference: input.reference ?? null,
        idempotencyKey: input.idempotencyKey,
      });
    });
  }

  /**
   * Takes credits back once per idempotency key (a Stripe refund or chargeback). Unlike `spend` this
   * may take the balance below zero: the credits were bought and then refunded, and what was already
   * used cannot be un-used. Only payment reversals call this.
   */
  async clawback(
    input: { userId: string; amount: number; reason?: string; idempotencyKey: string; reference?: string },
    tx?: Tx,
  ): Promise<LedgerResult> {
    assertWholePositive(input.amount);
    return this.write(input.idempotencyKey, tx, { lookUp: true }, async (t) => {
      const after = await repo.applyDelta(t, input.userId, -input.amount);
      return repo.appendEntry(t, {
        userId: input.userId,
        amount: -input.amount,
        balanceAfter: after,
        reason: input.reason ?? 'clawback',
        reference: input.reference ?? null,
        idempotencyKey: input.idempotencyKey,
      });
    });
  }

  /** The user's entries, newest first; `beforeId` continues a page. */
  history(userId: string, options: { beforeId?: number; limit: number }): Promise<CreditLedgerRow[]> {
    return repo.listEntries(this.db, userId, options);
  }

  /**
   * Gives back what was spent for `reference`, at most once however often it is called. Returns
   * undefined when nothing was spent for it.
   */
  async refund(reference: string, tx?: Tx): Promise<LedgerResult | undefined> {
    const spent = await repo.findEntryByKey(tx ?? this.db, spendKey(reference));
    if (!spent) return undefined;
    const key = refundKey(reference);
    return this.write(key, tx, { lookUp: true }, async (t) => {
      const after = await repo.applyDelta(t, spent.userId, -spent.amount);
      return repo.appendEntry(t, {
        userId: spent.userId,
        amount: -spent.amount,
        balanceAfter: after,
        reason: 'refund',
        reference,
        idempotencyKey: key,
      });
    });
  }

  /**
   * Runs `apply` in a transaction unless the key is already written (looked up first unless the
   * caller knows it is new). When a concurrent call wins the race, the unique key makes our insert a
   * no-op and we roll back our balance change.
   */
  private async write(
    key: string,
    tx: Tx | undefined,
    options: { lookUp: boolean },
    apply: (t: DbOrTx) => Promise<CreditLedgerRow | undefined>,
  ): Promise<LedgerResult> {
    const existing = options.lookUp ? await repo.findEntryByKey(tx ?? this.db, key) : undefined;
    if (existing) return { entry: existing, replayed: true };
    const run = async (t: Tx) => {
      const entry = await apply(t);
      if (!entry) throw new AlreadyApplied();
      return { entry, replayed: false };
    };
    if (tx) {
      // Inside the caller's transaction a lost race must abort the caller too: surface it as a conflict.
      try {
        return await run(tx);
      } catch (err) {
        if (err instanceof AlreadyApplied) throw new AppError('CONFLICT', 'This change was already applied.');
        throw err;
      }
    }
    try {
      return await this.db.transaction(run);
    } catch (err) {
      if (!(err instanceof AlreadyApplied)) throw err;
      const entry = await repo.findEntryByKey(this.db, key);
      if (!entry) throw err;
      return { entry, replayed: true };
    }
  }
}
