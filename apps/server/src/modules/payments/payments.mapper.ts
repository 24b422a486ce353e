import type { CreditPackageView, PaymentView } from '@lumina/contracts';
import type { CreditPackage } from '../../config.ts';
import type { PaymentRow } from '../../db/schema/index.ts';

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

export function toPaymentView(p: PaymentRow): PaymentView {
  return {
    id: p.id,
    amount_cents: p.amountCents,
    currency: p.currency,
    status: p.status,
    package_id: p.packageId,
    credits: p.credits,
    created_at: p.createdAt.toISOString(),
    receipt_url: p.receiptUrl,
  };
}
