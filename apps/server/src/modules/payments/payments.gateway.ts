import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { PaymentsConfig } from '../../config.ts';

/** The parts of a Checkout Session the crediting path reads. */
export interface CheckoutSessionInfo {
  id: string;
  status: string | null;
  paymentStatus: string;
  amountTotal: number | null;
  currency: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  paymentIntent: string | null;
  customer: string | null;
}

export interface CreateCheckoutInput {
  paymentId: string;
  userId: string;
  packageId: string;
  packageName: string;
  credits: number;
  amountCents: number;
  currency: string;
  stripePriceId?: string;
  customerId?: string;
  successUrl: string;
  cancelUrl: string;
  /** When an unpaid session stops accepting payment (Stripe accepts 30 minutes to 24 hours ahead). */
  expiresAt: Date;
}

/**
 * Stripe behind one interface: Checkout, customers, the billing portal and webhook verification. The
 * development gateway stands in when no STRIPE_SECRET_KEY is set (never in production).
 */
export interface PaymentGateway {
  readonly mode: 'stripe' | 'development';
  createCheckoutSession(input: CreateCheckoutInput): Promise<{ id: string; url: string }>;
  /** Null for the development gateway: the payments row is the session. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionInfo | null>;
  createCustomer(input: { userId: string; email: string | null }): Promise<string>;
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
  /** The receipt of a paid PaymentIntent's charge, when Stripe gives one. */
  receiptUrl(paymentIntentId: string): Promise<string | null>;
  /**
   * The card fingerprint of a paid PaymentIntent's charge (Stripe's, the same for the same card across
   * accounts), a referral abuse signal; null when there is none (not a card, development checkout).
   */
  cardFingerprint(paymentIntentId: string): Promise<string | null>;
  /** Refunds a PaymentIntent in full; the same `idempotencyKey` returns the same refund. */
  refund(paymentIntentId: string, idempotencyKey: string): Promise<void>;
  /** Verifies `Stripe-Signature` over the exact raw body; throws when it does not match. */
  constructEvent(rawBody: Buffer | string, signature: string): Stripe.Event;
  /** Signs a payload with the webhook secret (development checkout and tests). */
  sign(payload: string): string;
}

export function toSessionInfo(s: Stripe.Checkout.Session): CheckoutSessionInfo {
  const id = (v: string | { id: string } | null | undefined) =>
    v == null ? null : typeof v === 'string' ? v : v.id;
  return {
    id: s.id,
    status: s.status,
    paymentStatus: s.payment_status,
    amountTotal: s.amount_total,
    currency: s.currency,
    clientReferenceId: s.client_reference_id,
    metadata: (s.metadata ?? {}) as Record<string, string>,
    paymentIntent: id(s.payment_intent),
    customer: id(s.customer),
  };
}

export class StripeGateway implements PaymentGateway {
  readonly mode = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly config: NonNullable<PaymentsConfig['stripe']>) {
    this.stripe = new Stripe(config.secretKey, {
      ...(config.host ? { host: config.host } : {}),
      ...(config.port ? { port: config.port } : {}),
      ...(config.protocol ? { protocol: config.protocol } : {}),
      telemetry: false,
    });
  }

  async createCheckoutSession(input: CreateCheckoutInput) {
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          input.stripePriceId
            ? { price: input.stripePriceId, quantity: 1 }
            : {
                price_data: {
                  currency: input.currency,
                  unit_amount: input.amountCents,
                  product_data: {
                    name:
                      input.credits > 0
                        ? `${input.packageName}: ${input.credits} credits`
                        : input.packageName,
                  },
                },
                quantity: 1,
              },
        ],
        client_reference_id: input.userId,
        metadata: {
          payment_id: input.paymentId,
          user_id: input.userId,
          package_id: input.packageId,
          credits: String(input.credits),
        },
        payment_intent_data: { metadata: { payment_id: input.paymentId, user_id: input.userId } },
        ...(input.customerId ? { customer: input.customerId } : {}),
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      },
      // Derived from our payment row, so an SDK retry returns the same Session.
      { idempotencyKey: `checkout:${input.paymentId}` },
    );
    if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
    return { id: session.id, url: session.url };
  }

  async retrieveCheckoutSession(id: string) {
    return toSessionInfo(await this.stripe.checkout.sessions.retrieve(id));
  }

  async createCustomer(input: { userId: string; email: string | null }) {
    const customer = await this.stripe.customers.create(
      { ...(input.email ? { email: input.email } : {}), metadata: { user_id: input.userId } },
      { idempotencyKey: `customer:${input.userId}` },
    );
    return customer.id;
  }

  async createPortalSession(customerId: string, returnUrl: string) {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
    });
    return session.url;
  }

  async receiptUrl(paymentIntentId: string) {
    const intent = await this.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
    const charge = intent.latest_charge;
    return charge && typeof charge === 'object' ? (charge.receipt_url ?? null) : null;
  }

  async cardFingerprint(paymentIntentId: string) {
    const intent = await this.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
    const charge = intent.latest_charge;
    return charge && typeof charge === 'object'
      ? (charge.payment_method_details?.card?.fingerprint ?? null)
      : null;
  }

  async refund(paymentIntentId: string, idempotencyKey: string) {
    await this.stripe.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey });
  }

  constructEvent(rawBody: Buffer | string, signature: string) {
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret);
  }

  sign(payload: string) {
    return this.stripe.webhooks.generateTestHeaderString({ payload, secret: this.config.webhookSecret });
  }
}

/**
 * Development checkout: no Stripe at all. Sessions are our payment rows; completing one posts a
 * locally signed `checkout.session.completed` through the same webhook verification and crediting.
 */
export class DevelopmentGateway implements PaymentGateway {
  readonly mode = 'development' as const;

  constructor(
    private readonly webhookSecret: string,
    private readonly webUrl: string,
  ) {}

  async createCheckoutSession(_input: CreateCheckoutInput) {
    const id = `cs_dev_${randomBytes(12).toString('hex')}`;
    return { id, url: `${this.webUrl}/credits/dev-checkout?session_id=${encodeURIComponent(id)}` };
  }

  async retrieveCheckoutSession() {
    return null;
  }

  async createCustomer(input: { userId: string }) {
    return `cus_dev_${input.userId.replace(/-/g, '')}`;
  }

  async createPortalSession(_customerId: string, returnUrl: string) {
    return returnUrl;
  }

  async receiptUrl() {
    // No real payment, no receipt.
    return null;
  }

  async cardFingerprint() {
    // No card was used.
    return null;
  }

  async refund() {
    // Nothing was taken: the payment row is marked refunded by the caller.
  }

  constructEvent(rawBody: Buffer | string, signature: string) {
    return Stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
  }

  sign(payload: string) {
    return Stripe.webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret });
  }
}
