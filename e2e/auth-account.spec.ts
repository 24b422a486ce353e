import { expect, test } from '@playwright/test';
import {
  card,
  header,
  latestMessageId,
  nextGoogleUser,
  nextMessage,
  signInWithCode,
  totpCard,
} from './support/auth';
import { en as common, FACTOR_NAMES, SDK_TRANSLATIONS, SIGN_OUT } from './support/locale';
import {
  authenticator,
  newPersonOnAccountPage,
  openAccount,
  signInFromHeader,
  signInNewPerson,
  turnOnAuthenticatorAndEmailCode,
} from './support/account';

test.use({ colorScheme: 'light' });

test('turning on an authenticator app on the account page makes the next sign-in ask for its code', async ({
  page,
  request,
}) => {
  const email = await signInNewPerson(page, request, 'totp');

  await openAccount(page);
  await expect(page.getByTestId('account-email')).toHaveText(email);
  const totpRow = page.getByTestId('factor-totp');
  await expect(totpRow).toHaveAttribute('data-state', 'notSetUp');
  await expect(page.getByTestId('factor-otp-email')).toHaveAttribute('data-state', 'off');
  await totpRow.getByRole('button', { name: common.account.setUp }).click();

  // The prebuilt set-up screen: show the secret instead of scanning the QR code, type the current code.
  await expect(page).toHaveURL(/\/auth\/mfa\/totp/);
  await totpCard.showSecret(page).click();
  const code = authenticator((await totpCard.secret(page).innerText()).trim());
  await totpCard.code(page).fill(code());
  await card.submit(page).click();

  // Back on the account page, TOTP is on.
  await expect(page).toHaveURL(/\/account$/);
  await expect(totpRow).toHaveAttribute('data-state', 'on');
  await expect(totpRow).toContainText(common.account.factorState.on);
  await page.screenshot({ path: 'test-results/screenshots/account-totp-on.png', fullPage: true });

  // Next sign-in: the email code alone is not enough; the TOTP screen asks for the app's code.
  await header(page).getByRole('button', { name: common.header.signOut }).click();
  await expect(header(page).getByRole('link', { name: common.header.signIn })).toBeVisible();
  await header(page).getByRole('link', { name: common.header.signIn }).click();
  await signInWithCode(page, request, email);
  await expect(page).toHaveURL(/\/auth\/mfa\/totp/);
  await expect(totpCard.code(page)).toBeVisible();
  await expect(header(page).getByTestId('user-email')).toHaveCount(0);
  await totpCard.code(page).fill(code(1));
  await card.submit(page).click();
  await expect(page).not.toHaveURL(/\/auth/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);

  // Turning it off on the account page removes the app; the row goes back to "Not set up".
  await openAccount(page);
  await totpRow.getByRole('button', { name: common.account.turnOff }).click();
  await expect(totpRow).toHaveAttribute('data-state', 'notSetUp');
});

test('with the email second factor on, a Google sign-in stops at /auth/mfa/otp-email until the emailed code is entered', async ({
  page,
  request,
}) => {
  const email = await newPersonOnAccountPage(page, request, 'otp-email');
  const row = page.getByTestId('factor-otp-email');
  await expect(row).toHaveAttribute('data-state', 'off');
  await row.getByRole('button', { name: common.account.turnOn }).click();
  await expect(row).toHaveAttribute('data-state', 'on');
  await page.reload();
  await expect(row).toHaveAttribute('data-state', 'on');

  // Signing in with an email code already is the email factor; Google (same verified address, so the
  // same user) is not, so the only factor left is the emailed code and the UI goes straight to it.
  await header(page).getByRole('button', { name: common.header.signOut }).click();
  await nextGoogleUser(request, { sub: `google-${email}`, email });
  const before = await latestMessageId(request, email);
  await header(page).getByRole('link', { name: common.header.signIn }).click();
  await page.getByRole('button', { name: 'Continue with Google', exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/mfa\/otp-email/);
  await card.code(page).fill((await nextMessage(request, email, before)).code!);
  await card.submit(page).click();
  await expect(page).not.toHaveURL(/\/auth/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);

  await openAccount(page);
  await row.getByRole('button', { name: common.account.turnOff }).click();
  await expect(row).toHaveAttribute('data-state', 'off');
});

test('"Sign out of all devices" also signs out another browser', async ({ browser, page, request }) => {
  const email = await signInNewPerson(page, request, 'everywhere');
  const other = await browser.newContext({ colorScheme: 'light' });
  const otherPage = await other.newPage();
  await signInFromHeader(otherPage, request, email);

  await openAccount(page);
  await page.getByRole('button', { name: common.account.signOutEverywhere }).click();
  const revoked = page.waitForResponse(
    (r) => r.url().endsWith('/api/user/sessions') && r.request().method() === 'DELETE',
  );
  await page.getByRole('button', { name: common.account.signOutEverywhereConfirm }).click();
  expect(await (await revoked).json()).toEqual({ revoked: 2 });
  await expect(header(page).getByRole('link', { name: common.header.signIn })).toBeVisible();

  // The other browser still holds its tokens, but the server has revoked its session.
  await otherPage.goto('/account');
  await expect(otherPage).toHaveURL(/\/auth\?redirectToPath=%2Faccount$/);
  await expect(header(otherPage).getByRole('link', { name: common.header.signIn })).toBeVisible();
  await other.close();
});

test('with both second factors on, a Google sign-in offers the /auth/mfa chooser, and TOTP completes it', async ({
  page,
  request,
}) => {
  const email = await newPersonOnAccountPage(page, request, 'chooser');
  const code = await turnOnAuthenticatorAndEmailCode(page);

  await header(page).getByRole('button', { name: common.header.signOut }).click();
  await nextGoogleUser(request, { sub: `google-${email}`, email });
  await header(page).getByRole('link', { name: common.header.signIn }).click();
  await page.getByRole('button', { name: 'Continue with Google', exact: true }).click();
  await expect(page).toHaveURL(/\/auth\/mfa(\?|$)/);
  // The chooser speaks our words (apps/web/src/lib/supertokens-translations.ts), not the SDK's jargon.
  await expect(card.container(page)).toContainText(SDK_TRANSLATIONS.en!.MULTI_FACTOR_CHOOSER_HEADER_TITLE!);
  await expect(card.container(page)).toContainText(FACTOR_NAMES['otp-email']);
  await expect(card.container(page)).toContainText(SIGN_OUT);
  await expect(card.container(page)).not.toContainText(/OTP|Log ?out/i);
  await page.locator('[data-supertokens~="factorChooserOption"]', { hasText: FACTOR_NAMES.totp }).click();
  await expect(page).toHaveURL(/\/auth\/mfa\/totp/);
  await totpCard.code(page).fill(code(1));
  await card.submit(page).click();
  await expect(page).not.toHaveURL(/\/auth/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
});
