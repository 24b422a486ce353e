import { expect, test } from '@playwright/test';
import { header, newEmail, signInWithCode } from './support/auth';
import { en as t } from './support/locale';
import { shot, digits } from './support/page';

test('buy a package through the development checkout, see the balance grow, leave a review', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.goto('/credits');
  await expect(page).toHaveURL(/\/auth\?redirectToPath=/);
  await signInWithCode(page, request, newEmail('credits'));
  await expect(page).toHaveURL(/\/credits$/);

  const balance = header(page).getByTestId('credit-balance');
  await expect(balance).toBeVisible();
  const before = digits(await balance.textContent());
  await expect(page.getByTestId('credits-page-balance')).toHaveAttribute('data-balance', String(before));

  // A new account has nothing to review yet.
  const card = page.getByTestId('credit-package').first();
  await expect(card).toBeVisible();
  await expect(page.getByTestId('review-prompt')).toHaveCount(0);
  const credits = Number(await card.getAttribute('data-credits'));
  expect(credits).toBeGreaterThan(0);
  await shot(page, 'credits-light');

  // Cancelling the development checkout comes back without charging.
  await card.getByRole('button').click();
  await expect(page).toHaveURL(/\/credits\/dev-checkout\?session_id=/);
  await expect(page.getByRole('heading', { name: t.credits.devCheckout.title })).toBeVisible();
  await page.getByRole('button', { name: t.credits.devCheckout.cancel }).click();
  // The server's cancel URL is /credits?checkout=cancelled (the web also has /credits/cancel for custom ones).
  await expect(page).toHaveURL(/\/credits\?checkout=cancelled$/);
  await expect(page.getByTestId('checkout-cancelled')).toContainText(t.credits.cancel.title);
  await expect(balance).toHaveText(new Intl.NumberFormat('en').format(before));

  // Buying for real (development mode) goes through the same crediting path as Stripe.
  await page.goto('/credits');
  await page.getByTestId('credit-package').first().getByRole('button').click();
  await expect(page).toHaveURL(/\/credits\/dev-checkout\?session_id=/);
  await expect(page.getByTestId('dev-checkout-amount')).toBeVisible();
  await shot(page, 'credits-dev-checkout');
  await page.getByTestId('dev-checkout-pay').click();

  await expect(page).toHaveURL(/\/credits\/success\?session_id=/);
  const expected = new Intl.NumberFormat('en').format(before + credits);
  await expect(page.getByTestId('new-balance')).toHaveText(expected);
  await expect(balance).toHaveText(expected);

  // The review prompt for this purchase; stars are a radio group driven by the keyboard.
  const prompt = page.getByTestId('review-prompt');
  await expect(prompt).toBeVisible();
  await shot(page, 'credits-success');
  await prompt.getByRole('radio', { name: '1 star' }).focus();
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
  await expect(prompt.getByRole('radio', { name: '4 stars' })).toBeChecked();
  await prompt.getByLabel(t.reviews.comment).fill('Quick and simple.');
  await prompt.getByRole('button', { name: t.reviews.submit }).click();
  await expect(page.getByTestId('review-thanks')).toHaveText(t.reviews.thanks);
  await expect(prompt).toHaveCount(0);

  // Back on /credits: the payment is listed as paid, the ledger has the purchase, and no review is asked for.
  await page.goto('/credits');
  await expect(page.getByTestId('transaction').first()).toHaveAttribute('data-status', 'paid');
  await expect(page.getByTestId('history-row').first()).toHaveAttribute('data-reason', 'purchase');
  await expect(page.getByTestId('credits-page-balance')).toHaveAttribute(
    'data-balance',
    String(before + credits),
  );
  await expect(page.getByTestId('review-prompt')).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await shot(page, 'credits-dark-phone');
});
