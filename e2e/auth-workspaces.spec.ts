import { expect, test } from '@playwright/test';
import { card, FAKE_GOOGLE_URL, header, nextGoogleUser } from './support/auth';

/**
 * "Continue with Google Workspaces" (the SDK's `google-workspaces` button) against the fake OpenID
 * provider, which gives Workspace addresses the `hd` claim. The server allows lumina-workspace.test only
 * (GOOGLE_WORKSPACES_HD in playwright.config.ts); other-workspace.test is another Workspace domain.
 */

test.use({ colorScheme: 'light' });

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

test('a Workspace account of the allowed domain signs in through "Continue with Google Workspaces"', async ({
  page,
  request,
}) => {
  const email = `e2e-ws-${unique()}@lumina-workspace.test`;
  await nextGoogleUser(request, { sub: `ws-${email}`, email });
  await page.goto('/auth');
  const authorisations: URL[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(FAKE_GOOGLE_URL) && r.url().includes('/authorize'))
      authorisations.push(new URL(r.url()));
  });
  const signInUp = page.waitForResponse(
    (r) => r.url().endsWith('/auth/signinup') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Continue with Google Workspaces' }).click();

  await page.waitForURL(/\/auth\/callback\/google-workspaces\?/);
  expect(authorisations.at(-1)?.searchParams.get('hd')).toBe('lumina-workspace.test');
  expect(await (await signInUp).json()).toMatchObject({ status: 'OK', createdNewRecipeUser: true });
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
});

test('a Workspace account of another domain is refused and the card says why', async ({ page, request }) => {
  const email = `e2e-ws-${unique()}@other-workspace.test`;
  await nextGoogleUser(request, { sub: `ws-${email}`, email });
  await page.goto('/auth');
  const signInUp = page.waitForResponse(
    (r) => r.url().endsWith('/auth/signinup') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Continue with Google Workspaces' }).click();

  expect(await (await signInUp).json()).toMatchObject({ status: 'SIGN_IN_UP_NOT_ALLOWED' });
  await expect(page).toHaveURL(/\/auth\/?\?/);
  await expect(card.container(page)).toContainText(
    'Accounts of other-workspace.test cannot sign in here. Please use a Google Workspace account of lumina-workspace.test.',
  );
  await expect(header(page).getByTestId('user-email')).toHaveCount(0);
});
