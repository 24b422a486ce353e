import { expect, test } from '@playwright/test';
import { newEmail, signInWithCode, signUpThroughApi } from './support/auth';
import { seriousViolations } from './support/axe';

/** The referral programme in the browser, against the real server (the Stripe journey is referrals-stripe.spec.ts). */

test('any page keeps ?ref= in localStorage and sessionStorage', async ({ page }) => {
  await page.goto('/products?ref=FRIEND-1');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 });
  const stored = await page.evaluate(() => [
    window.localStorage.getItem('lumina.referral'),
    window.sessionStorage.getItem('lumina.referral'),
  ]);
  for (const raw of stored) {
    expect(JSON.parse(raw ?? 'null')).toMatchObject({
      code: 'FRIEND-1',
      source_url: expect.stringContaining('/products?ref=FRIEND-1'),
      held: true,
      tracking_attempted: false,
    });
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`a visitor sees what the programme offers at phone width (${theme})`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/referrals');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Referrals', { timeout: 15_000 });
    const terms = page.getByTestId('referral-intro-terms');
    await expect(terms).toContainText(/You get \d+ credits for each friend/);
    await expect(page.getByRole('link', { name: 'Sign up to get your link' })).toHaveAttribute(
      'href',
      '/auth?redirectToPath=%2Freferrals',
    );
    if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('after signing in, the held code is sent to the server once and then cleared', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // A referrer, made through the API, and their default code.
  const token = await signUpThroughApi(request, newEmail('referrer'));
  const auth = { authorization: `Bearer ${token}` };
  const stats = (await (await request.get('/api/referrals/stats', { headers: auth })).json()) as {
    codes: { code: string }[];
  };
  const code = stats.codes[0]!.code;
  // Watched on its way to the real server.
  const tracked: string[] = [];
  await page.route('**/api/referrals/track?**', async (route) => {
    tracked.push(route.request().url());
    await route.continue();
  });
  await page.goto(`/?ref=${code}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 15_000 });
  // Signed out: the load-time check a second later sends nothing.
  await page.waitForTimeout(1500);
  expect(tracked).toEqual([]);
  await page.goto('/auth');
  await signInWithCode(page, request, newEmail('referral'));
  await expect.poll(() => tracked.length).toBeGreaterThan(0);
  expect(new URL(tracked[0]!).searchParams.get('referral_code')).toBe(code);
  await expect
    .poll(() =>
      page.evaluate(() => [
        window.localStorage.getItem('lumina.referral'),
        window.sessionStorage.getItem('lumina.referral'),
      ]),
    )
    .toEqual([null, null]);
  // Cleared, so the next pages send nothing more.
  await page.goto('/products');
  await page.waitForTimeout(1500);
  expect(tracked).toHaveLength(1);
  // The referrer sees the new person, masked.
  const joined = (await (await request.get('/api/referrals/referrals', { headers: auth })).json()) as {
    referrals: { email: string; status: string }[];
  };
  expect(joined.referrals).toEqual([
    expect.objectContaining({ status: 'joined', email: expect.stringMatching(/•/) }),
  ]);
});
