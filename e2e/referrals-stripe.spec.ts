import { expect, test, type Page } from '@playwright/test';
import { header, newEmail, signInWithCode } from './support/auth';
import { digits } from './support/page';
import { E2E_REFERRALS, fakeSession, payOnFakeCheckout, refundInStripe } from './support/stripe';

/**
 * Issue 14's journey (the `chromium-stripe` project, whose server runs with REFERRAL_MIN_REFERRER_AGE_HOURS=0
 * and the small rewards of E2E_REFERRALS): A shares their link; B opens it signed out, signs up and pays
 * through Stripe Checkout; both are rewarded; a refund made in Stripe takes both rewards back.
 *
 * What it relies on (the Referrals page and the invite notice): `referral-link` (its value or text is the
 * link), the "Copy link" button, `referral-stat-{visits,signups,completed,creditsEarned}` (the number in
 * the text), `referral-person` (one per person who joined, `data-status` = the contract's ReferralStatus),
 * `referral-notice`.
 */

const stat = async (page: Page, name: 'visits' | 'signups' | 'completed' | 'creditsEarned') =>
  digits(await page.getByTestId(`referral-stat-${name}`).textContent());

/** The header's balance after a fresh load (rewards arrive with the payment's webhook, not on this page). */
async function expectBalance(page: Page, path: string, expected: number) {
  await expect(async () => {
    await page.goto(path);
    await expect(header(page).getByTestId('credit-balance')).toHaveText(
      new Intl.NumberFormat('en').format(expected),
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 20_000 });
}

/** A's Referrals page, reloaded until `check` holds (stats are read when the page loads). */
async function expectOnReferrals(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.goto('/referrals');
    await expect(page.getByTestId('referral-stat-signups')).toBeVisible({ timeout: 5_000 });
    await check();
  }).toPass({ timeout: 30_000 });
}

test('a shared link rewards both people on the first payment; a refund in Stripe takes both rewards back', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const emailA = newEmail('referrer');
  const emailB = newEmail('referred');

  // Two people on two networks: the server believes the address each browser gives (TRUST_PROXY
  // loopback), and people signing up from the referrer's address earn nothing.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': '203.0.113.10' });

  // A signs up, opens Referrals and copies their link.
  await page.goto('/credits');
  await signInWithCode(page, request, emailA);
  await expect(page).toHaveURL(/\/credits$/);
  const balanceA = digits(await header(page).getByTestId('credit-balance').textContent());
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/referrals');
  const shown = page.getByTestId('referral-link');
  await expect(shown).toBeVisible();
  const link = await shown.evaluate((el) =>
    el instanceof HTMLInputElement ? el.value : (el.textContent ?? '').trim(),
  );
  expect(link).toMatch(/\?ref=[A-Za-z0-9-]{4,32}$/);
  await page.getByRole('button', { name: 'Copy link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  const visitsBefore = await stat(page, 'visits');
  expect(await stat(page, 'signups')).toBe(0);

  // B, signed out in their own browser, opens the link: who invited them, and what they will get.
  const contextB = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.20' } });
  const pageB = await contextB.newPage();
  await pageB.goto(link);
  const notice = pageB.getByTestId('referral-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(String(E2E_REFERRALS.welcome));
  await expect(notice).not.toContainText(emailA);

  // B signs up; the held code binds them to A, who sees the visit and the sign-up, masked.
  await pageB.goto('/credits');
  await signInWithCode(pageB, request, emailB);
  await expect(pageB).toHaveURL(/\/credits$/);
  const balanceB = digits(await header(pageB).getByTestId('credit-balance').textContent());
  await expectOnReferrals(page, async () => {
    expect(await stat(page, 'signups')).toBe(1);
    expect(await stat(page, 'visits')).toBeGreaterThan(visitsBefore);
    expect(await stat(page, 'completed')).toBe(0);
    await expect(page.getByTestId('referral-person')).toHaveCount(1);
    await expect(page.getByTestId('referral-person')).toHaveAttribute('data-status', 'joined');
  });
  const row = page.getByTestId('referral-person');
  await expect(row).toContainText('•••');
  await expect(row).not.toContainText(emailB);

  // B's first purchase, through Stripe Checkout: the package plus the welcome credits.
  const card = pageB.getByTestId('credit-package').first();
  const credits = Number(await card.getAttribute('data-credits'));
  const price = (await card.getByTestId('package-price').textContent())!;
  await card.getByRole('button').click();
  await payOnFakeCheckout(pageB, price);
  await expect(pageB).toHaveURL(/\/credits\/success\?session_id=cs_test_/);
  const sessionId = new URL(pageB.url()).searchParams.get('session_id')!;
  await expectBalance(pageB, '/credits', balanceB + credits + E2E_REFERRALS.welcome);

  // A is rewarded, and their page says so.
  await expectBalance(page, '/credits', balanceA + E2E_REFERRALS.reward);
  await expectOnReferrals(page, async () => {
    expect(await stat(page, 'completed')).toBe(1);
    expect(await stat(page, 'creditsEarned')).toBe(E2E_REFERRALS.reward);
    await expect(page.getByTestId('referral-person')).toHaveAttribute('data-status', 'completed');
  });

  // The payment is refunded in Stripe: B loses the package and the welcome, A the reward.
  const session = await fakeSession(request, sessionId);
  await refundInStripe(request, session.payment_intent!);
  await expectBalance(pageB, '/credits', balanceB);
  await expectBalance(page, '/credits', balanceA);
  await expectOnReferrals(page, async () => {
    expect(await stat(page, 'creditsEarned')).toBe(0);
    await expect(page.getByTestId('referral-person')).toHaveAttribute('data-status', 'clawed_back');
  });
  await contextB.close();
});
