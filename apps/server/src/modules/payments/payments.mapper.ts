import type { PaymentView } from '@lumina/contracts';
import type { PaymentRow } from '../../db/schema/index.ts';
import type { ProcessResult } from './payments.service.ts';

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

export function toCheckoutView(checkout: { url: string; sessionId: string }) {
  return { url: checkout.url, session_id: checkout.sessionId };
}

export function toProcessResultView(result: ProcessResult) {
  return { status: result.status, credits_added: result.creditsAdded, balance: result.balance };
}

/** The development checkout page's view of a pending payment (PAYMENTS_MODE=development only). */
export function toDevCheckoutView(p: PaymentRow) {
  return {
    session_id: p.stripeSessionId,
    package_id: p.packageId,
    package_name: p.packageName,
    credits: p.credits,
    amount_cents: p.amountCents,
    currency: p.currency,
    status: p.status,
    success_url: p.successUrl.replace('{CHECKOUT_SESSION_ID}', p.stripeSessionId),
    cancel_url: p.cancelUrl,
  };
}

export function toDevRedirectView(r: { status: PaymentRow['status']; redirectUrl: string }) {
  return { status: r.status, redirect_url: r.redirectUrl };
}
