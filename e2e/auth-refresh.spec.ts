import { expect, test } from '@playwright/test';
import { header } from './support/auth';
import { signInNewPerson } from './support/account';
import { en as common } from './support/locale';

// Runs in the `chromium-short-token` project: its server issues access tokens that live 5 seconds.
test('an access token that expires mid-session is refreshed silently before the next product call', async ({
  page,
  request,
}) => {
  const email = await signInNewPerson(page, request, 'refresh', { expectOnboarding: false });

  const calls: { method: string; path: string; status: number }[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname === '/auth/session/refresh' || url.pathname === '/api/user') {
      calls.push({ method: response.request().method(), path: url.pathname, status: response.status() });
    }
  });

  // Past the 5-second lifetime, then the next product call: the header loads the profile again.
  await page.waitForTimeout(6_500);
  await page.reload();
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
  await expect(header(page).getByRole('link', { name: common.header.signIn })).toHaveCount(0);

  const refresh = calls.findIndex((c) => c.path === '/auth/session/refresh' && c.status === 200);
  const profile = calls.findIndex((c, i) => i > refresh && c.path === '/api/user' && c.status === 200);
  expect(refresh, `a successful refresh among ${JSON.stringify(calls)}`).toBeGreaterThanOrEqual(0);
  expect(profile, 'the profile call succeeds after the refresh').toBeGreaterThan(refresh);
  expect(calls.filter((c) => c.status === 401 && c.path === '/api/user')).toHaveLength(0);
});

test('a product call sent with an expired access token still succeeds: the SDK refreshes and retries', async ({
  page,
  request,
}) => {
  const email = await signInNewPerson(page, request, 'retry', { expectOnboarding: false });

  await page.waitForTimeout(6_500);
  // Call /api/user from the page with the (expired) token still attached: the SDK's interceptor sees the
  // 401, refreshes and retries, so the app gets the profile.
  const result = await page.evaluate(async () => {
    const token = document.cookie
      .split('; ')
      .find((c) => c.startsWith('st-access-token='))
      ?.slice('st-access-token='.length);
    const response = await fetch('/api/user', { headers: { Authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as { email?: string } };
  });
  expect(result).toEqual({ status: 200, body: expect.objectContaining({ email }) });
});
