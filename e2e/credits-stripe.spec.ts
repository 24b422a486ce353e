import { expect, test } from '@playwright/test';
import { header, newEmail, signInWithCode } from './support/auth';
import { digits } from './support/page';
import { fakeSession, payOnFakeCheckout, refundInStripe } from './support/stripe';

/**
 * The real Stripe path in a browser (the `chromium-stripe` project): Stripe Checkout's hosted page, the
 * signed webhook, and a refund made in Stripe that takes the credits back.
 */
test('buy a package through Stripe Checkout; a refund in Stripe takes the credits back', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.goto('/credits');
  await signInWithCode(page, request, newEmail('credits-stripe'));
  await expect(page).toHaveURL(/\/credits$/);

  const balance = header(page).getByTestId('credit-balance');
  await expect(balance).toBeVisible();
  const before = digits(await balance.textContent());
  const card = page.getByTestId('credit-package').first();
  const credits = Number(await card.getAttribute('data-credits'));
  const price = (await card.getByTestId('package-price').textContent())!;
  expect(credits).toBeGreaterThan(0);

  await card.getByRole('button').click();
  await payOnFakeCheckout(page, price);

  await expect(page).toHaveURL(/\/credits\/success\?session_id=cs_test_/);
  const sessionId = new URL(page.url()).searchParams.get('session_id')!;
  const paid = new Intl.NumberFormat('en').format(before + credits);
  await expect(page.getByTestId('new-balance')).toHaveText(paid);
  await expect(balance).toHaveText(paid);

  const session = await fakeSession(request, sessionId);
  expect(session).toMatchObject({ status: 'complete', payment_status: 'paid' });
  await refundInStripe(request, session.payment_intent!);

  await page.goto('/credits');
  await expect(page.getByTestId('credits-page-balance')).toHaveAttribute('data-balance', String(before));
  await expect(balance).toHaveText(new Intl.NumberFormat('en').format(before));
  await expect(page.getByTestId('transaction').first()).toHaveAttribute('data-status', 'refunded');
  await expect(page.getByTestId('history-row').first()).toHaveAttribute('data-reason', 'clawback');
});
