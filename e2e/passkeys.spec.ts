import { expect, test, type Page } from '@playwright/test';
import { card, header, signInWithCode } from './support/auth';
import { en as common } from './support/locale';
import { newPersonOnAccountPage, openAccount } from './support/account';

/**
 * Passkeys (issue 16) through the unmodified prebuilt UI and the account page, with Chromium's virtual
 * authenticator (DevTools protocol `WebAuthn.addVirtualAuthenticator`) standing in for the device.
 * Runs against the `localhost` server of playwright.config.ts: passkeys need a domain, not an IP.
 */

test.use({ colorScheme: 'light' });
test.setTimeout(120_000);

/** A platform authenticator that holds discoverable credentials and verifies the person (ctap2, internal). */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

const passkeys = common.account.passkeys;
const continueWithPasskey = (page: Page) =>
  card.container(page).getByRole('button', { name: /continue with passkey/i });

async function addPasskeyOnAccountPage(page: Page, name: string) {
  const panel = page.getByTestId('passkeys-panel');
  await expect(panel.getByTestId('passkeys-empty')).toBeVisible();
  await panel.getByLabel(passkeys.nameLabel).fill(name);
  await panel.getByRole('button', { name: passkeys.add }).click();
  const row = panel.getByTestId('passkey-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(name);
  await expect(row).toContainText(passkeys.neverUsed);
  return row;
}

async function signOut(page: Page) {
  await header(page).getByRole('button', { name: common.header.signOut }).click();
  await expect(header(page).getByRole('link', { name: common.header.signIn })).toBeVisible();
}

test('adds a passkey on the account page, signs in with it from the card, and removes it', async ({
  page,
  request,
}) => {
  const device = await virtualAuthenticator(page);
  const email = await newPersonOnAccountPage(page, request, 'passkey');
  await addPasskeyOnAccountPage(page, 'This laptop');
  expect(await device.credentials()).toHaveLength(1);
  // The passkey is also offered as a second factor, ready to turn on.
  await expect(page.getByTestId('factor-webauthn')).toHaveAttribute('data-state', 'off');

  await signOut(page);
  await header(page).getByRole('link', { name: common.header.signIn }).click();
  await continueWithPasskey(page).click();
  await expect(page).not.toHaveURL(/\/auth/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);

  await openAccount(page);
  const row = page.getByTestId('passkeys-panel').getByTestId('passkey-row');
  await expect(row).toContainText(passkeys.lastUsed.replace(' {{date}}', ''));
  await row.getByRole('button', { name: passkeys.remove }).click();
  await page.getByTestId('remove-passkey-confirm').click();
  await expect(page.getByTestId('passkeys-empty')).toBeVisible();
  await expect(page.getByTestId('factor-webauthn')).toHaveAttribute('data-state', 'notSetUp');

  // The removed passkey no longer signs in: the card reports it and nobody is signed in.
  await signOut(page);
  await header(page).getByRole('link', { name: common.header.signIn }).click();
  await continueWithPasskey(page).click();
  // (The device still holds the credential; the server no longer knows it.)
  await expect(card.container(page)).toContainText('The passkey is invalid');
  await expect(header(page).getByTestId('user-email')).toHaveCount(0);
});

test('a passkey turned on as the second factor is asked for after an email-code sign-in', async ({
  page,
  request,
}) => {
  await virtualAuthenticator(page);
  const email = await newPersonOnAccountPage(page, request, 'passkey-mfa');
  await addPasskeyOnAccountPage(page, 'Security key');
  const factor = page.getByTestId('factor-webauthn');
  await factor.getByRole('button', { name: common.account.turnOn }).click();
  await expect(factor).toHaveAttribute('data-state', 'on');

  await signOut(page);
  await header(page).getByRole('link', { name: common.header.signIn }).click();
  await signInWithCode(page, request, email);
  await expect(page).toHaveURL(/\/auth\/mfa\/webauthn/);
  await expect(header(page).getByTestId('user-email')).toHaveCount(0);
  await card
    .container(page)
    .getByRole('button', { name: /continue|passkey/i })
    .first()
    .click();
  await expect(page).not.toHaveURL(/\/auth/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
});
