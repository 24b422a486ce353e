import { expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * The Stripe fake the `chromium-stripe` server pays through (apps/server/test/fakes/stripe-server.cli.ts,
 * started by playwright.config.ts at PORT_BASE + 5), and the settings that server runs with.
 */
export const FAKE_STRIPE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT_BASE ?? 3100) + 5}`;
export const FAKE_STRIPE_KEYS = { secret: 'sk_test_lumina_e2e', webhook: 'whsec_lumina_e2e' };
/** REFERRAL_REWARD_CREDITS and REFERRAL_WELCOME_CREDITS of that server: small, and unlike each other. */
export const E2E_REFERRALS = { reward: 30, welcome: 20 };

interface FakeSession {
  id: string;
  status: string;
  payment_status: string;
  payment_intent: string | null;
  amount_total: number;
}

/** On the fake's hosted checkout page: checks the price shown (as the app showed it), then pays. */
export async function payOnFakeCheckout(page: Page, price: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.href.startsWith(`${FAKE_STRIPE_URL}/checkout/cs_test_`));
  await expect(page.getByTestId('stripe-checkout-amount')).toHaveText(price);
  await page.getByRole('button', { name: 'Pay' }).click();
}

/** The Checkout Session as the fake holds it (its PaymentIntent once paid). */
export async function fakeSession(request: APIRequestContext, sessionId: string): Promise<FakeSession> {
  const res = await request.get(`${FAKE_STRIPE_URL}/_test/sessions`);
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: FakeSession[] };
  const session = data.find((s) => s.id === sessionId);
  expect(session, `the fake Stripe knows ${sessionId}`).toBeDefined();
  return session!;
}

/** A full refund as made in Stripe's dashboard; the app has accepted `charge.refunded` when this returns. */
export async function refundInStripe(request: APIRequestContext, paymentIntent: string): Promise<void> {
  const res = await request.post(`${FAKE_STRIPE_URL}/_test/refund`, {
    data: { payment_intent: paymentIntent },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(((await res.json()) as { webhook_status: number }).webhook_status).toBe(200);
}
