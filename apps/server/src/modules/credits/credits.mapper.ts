import type { CreditHistoryEntry, CreditPackageView } from '@lumina/contracts';
import type { CreditPackage } from '../../config.ts';
import type { CreditLedgerRow, JobRow, PaymentRow } from '../../db/schema/index.ts';

export function toPackageView(p: CreditPackage): CreditPackageView {
  return {
    id: p.id,
    name: p.name,
    credits: p.credits,
    price_cents: p.priceCents,
    currency: p.currency,
    stripe_price_id: p.stripePriceId ?? null,
    badge: p.badge ?? null,
    // Credits per one major unit (per dollar), rounded to 2 places for display.
    credits_per_unit: Math.round((p.credits / (p.priceCents / 100)) * 100) / 100,
  };
}

/** What a ledger entry's job or payment adds to the history, already looked up and signed. */
export interface HistoryReferences {
  job?: {
    row: JobRow;
    modelName: string;
    promptExcerpt: string | null;
    result?: { type: 'image' | 'video'; id: string; url: string; thumbnailUrl: string };
  };
  payment?: Pick<PaymentRow, 'id' | 'packageName' | 'status'>;
}

export function toHistoryEntry(
  row: CreditLedgerRow,
  { job, payment }: HistoryReferences,
): CreditHistoryEntry {
  return {
    id: String(row.id),
    amount: row.amount,
    reason: row.reason,
    reference: row.reference,
    created_at: row.createdAt.toISOString(),
    balance_after: row.balanceAfter,
    job: job
      ? {
          id: job.row.id,
          kind: job.row.kind,
          model: job.row.modelId,
          model_name: job.modelName,
          prompt_excerpt: job.promptExcerpt,
          status: job.row.status,
          result: job.result
            ? {
                type: job.result.type,
                id: job.result.id,
                url: job.result.url,
                thumbnail_url: job.result.thumbnailUrl,
              }
            : null,
        }
      : null,
    payment: payment ? { id: payment.id, package_name: payment.packageName, status: payment.status } : null,
  };
}
