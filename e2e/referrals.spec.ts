import { expect, test } from '@playwright/test';
import { seriousViolations } from './support/axe';

/** The referral programme in the browser, without a session (the signed-in side needs issue 14's routes). */

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
