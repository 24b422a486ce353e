import { z } from 'zod';
import { defineContract } from './contract.ts';
import { pageLimit, safeUrl, text } from './text.ts';

export const CREDIT_HISTORY_PAGE_MAX = 100;

export const PaymentStatus = z
  .enum(['pending', 'paid', 'failed', 'cancelled', 'expired', 'refunded'])
  .meta({ id: 'PaymentStatus' });
export type PaymentStatus = z.infer<typeof PaymentStatus>;

export const CreditPackageView = z
  .object({
    id: z.string(),
    name: z.string(),
    credits: z.int(),
    price_cents: z.int().describe('Price in minor units of `currency`'),
    currency: z.string().describe('ISO 4217, lower case (e.g. usd)'),
    stripe_price_id: z.string().nullable(),
    badge: z.string().nullable().describe('e.g. "best value"'),
    credits_per_unit: z.number().describe('Credits per one major unit of currency (e.g. per dollar)'),
  })
  .meta({ id: 'CreditPackage' });
export type CreditPackageView = z.infer<typeof CreditPackageView>;

export const creditPackagesContract = defineContract({
  method: 'GET',
  path: '/api/credits/packages',
  summary: 'Credit packages on sale (from configuration)',
  tags: ['credits'],
  auth: false,
  response: z.object({ packages: z.array(CreditPackageView) }).meta({ id: 'CreditPackages' }),
});

export const CreditHistoryEntry = z
  .object({
    id: z.string(),
    amount: z.int().describe('Positive grants, negative spends or clawbacks'),
    reason: z.string().describe('welcome, purchase, spend, refund, clawback, …'),
    reference: z.string().nullable(),
    created_at: z.iso.datetime(),
    balance_after: z.int().describe('The running balance right after this entry'),
    job: z
      .object({
        id: z.uuid(),
        kind: z.string().describe('generate, edit, copy_style, product_holding, upscale, animate'),
        model: z.string(),
        model_name: z.string().describe("The model's display name (its id when it left the catalogue)"),
        prompt_excerpt: z.string().nullable().describe("The start of the job's prompt or description"),
        status: z.string(),
        result: z
          .object({
            type: z.enum(['image', 'video']),
            id: z.uuid(),
            url: z.string().describe('Short-lived URL of the result'),
            thumbnail_url: z.string().describe('Short-lived URL of its thumbnail or poster'),
          })
          .nullable()
          .describe('The first result, while it exists'),
      })
      .nullable()
      .describe('The job this entry charged or refunded, in words a person recognises'),
    payment: z
      .object({ id: z.uuid(), package_name: z.string(), status: PaymentStatus })
      .nullable()
      .describe('The purchase this entry credited or took back'),
  })
  .meta({ id: 'CreditHistoryEntry' });
export type CreditHistoryEntry = z.infer<typeof CreditHistoryEntry>;

export const creditHistoryContract = defineContract({
  method: 'GET',
  path: '/api/credits/history',
  summary: "The user's ledger entries, newest first, with the running balance",
  tags: ['credits'],
  query: z.object({
    // Ledger entries are numbered: the cursor is the id of the last entry seen.
    cursor: text()
      .regex(/^[1-9]\d{0,14}$/, 'This page cursor is not valid; start again from the first page.')
      .optional(),
    limit: pageLimit(CREDIT_HISTORY_PAGE_MAX, 20),
  }),
  response: z
    .object({
      items: z.array(CreditHistoryEntry),
      next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null at the end'),
    })
    .meta({ id: 'CreditHistoryPage' }),
});

export const PaymentView = z
  .object({
    id: z.uuid(),
    amount_cents: z.int(),
    currency: z.string(),
    status: PaymentStatus,
    package_id: z.string(),
    credits: z.int(),
    created_at: z.iso.datetime(),
    receipt_url: z.string().nullable(),
  })
  .meta({ id: 'Payment' });
export type PaymentView = z.infer<typeof PaymentView>;

export const transactionsContract = defineContract({
  method: 'GET',
  path: '/api/transactions',
  summary: "The user's payments, newest first",
  tags: ['credits'],
  query: z.object({ limit: pageLimit(CREDIT_HISTORY_PAGE_MAX, 20) }),
  response: z.object({ payments: z.array(PaymentView) }).meta({ id: 'Transactions' }),
});

export const CheckoutSessionView = z
  .object({
    url: z.string().describe('Send the browser here (Stripe Checkout, or the development checkout page)'),
    session_id: z.string(),
  })
  .meta({ id: 'CheckoutSession' });

const PackageId = text().min(1).max(64);

export const purchaseCreditsContract = defineContract({
  method: 'POST',
  path: '/api/credits/purchase',
  summary: 'Starts a checkout for a credit package',
  tags: ['credits'],
  body: z.object({ package_id: PackageId }),
  response: CheckoutSessionView,
});

export const createCheckoutSessionContract = defineContract({
  method: 'POST',
  path: '/api/create_stripe_checkout_session',
  summary: 'Creates a Stripe Checkout Session for a credit package (same path as /api/credits/purchase)',
  tags: ['credits'],
  body: z.object({
    package_id: PackageId,
    success_url: safeUrl().optional().describe('Must be on this app; {CHECKOUT_SESSION_ID} is filled in'),
    cancel_url: safeUrl().optional().describe('Must be on this app'),
  }),
  response: CheckoutSessionView,
});

export const processPaymentContract = defineContract({
  method: 'POST',
  path: '/api/process_payment',
  summary: 'Confirms a checkout with Stripe and credits it once (the success page calls this)',
  tags: ['credits'],
  body: z.object({ session_id: text().min(1).max(255) }),
  response: z
    .object({
      status: PaymentStatus,
      credits_added: z.int().describe('Credits of this payment when paid, else 0'),
      balance: z.int(),
    })
    .meta({ id: 'ProcessPaymentResult' }),
});

export const customerPortalContract = defineContract({
  method: 'POST',
  path: '/api/create-customer-portal-session',
  summary: "A Stripe Billing portal session for the user's Stripe customer",
  tags: ['credits'],
  response: z.object({ url: z.string() }).meta({ id: 'CustomerPortalSession' }),
});

export const billingPortalStatusContract = defineContract({
  method: 'GET',
  path: '/api/credits/billing-portal',
  summary: 'Whether "Manage billing" can open the Stripe Billing portal for the user, and if not, why',
  tags: ['credits'],
  response: z
    .object({
      available: z.boolean(),
      reason: z.string().nullable().describe('Why not, in words for people (null when available)'),
    })
    .meta({ id: 'BillingPortalStatus' }),
});

export const stripeWebhookContract = defineContract({
  method: 'POST',
  path: '/api/webhooks/stripe',
  summary: 'Stripe webhook (Stripe-Signature over the raw body); each event is applied at most once',
  tags: ['webhooks'],
  auth: false,
  response: z.object({ received: z.literal(true) }),
});

const SessionParams = z.object({ session_id: text().min(1).max(255) });

export const DevCheckoutSessionView = z
  .object({
    session_id: z.string(),
    package_id: z.string(),
    package_name: z.string(),
    credits: z.int(),
    amount_cents: z.int(),
    currency: z.string(),
    status: PaymentStatus,
    success_url: z.string(),
    cancel_url: z.string(),
  })
  .meta({ id: 'DevCheckoutSession' });

export const devCheckoutSessionContract = defineContract({
  method: 'GET',
  path: '/api/dev/checkout/{session_id}',
  summary: 'Development checkout (only without STRIPE_SECRET_KEY): the session to show',
  tags: ['credits'],
  params: SessionParams,
  response: DevCheckoutSessionView,
});

export const DevCheckoutResult = z
  .object({ status: PaymentStatus, redirect_url: z.string().describe('Where the page goes next') })
  .meta({ id: 'DevCheckoutResult' });

export const devCheckoutCompleteContract = defineContract({
  method: 'POST',
  path: '/api/dev/checkout/{session_id}/complete',
  summary: 'Development checkout: pay (a locally signed checkout.session.completed through the webhook path)',
  tags: ['credits'],
  params: SessionParams,
  response: DevCheckoutResult,
});

export const devCheckoutCancelContract = defineContract({
  method: 'POST',
  path: '/api/dev/checkout/{session_id}/cancel',
  summary: 'Development checkout: cancel',
  tags: ['credits'],
  params: SessionParams,
  response: DevCheckoutResult,
});
