import { expect, test, type APIRequestContext } from '@playwright/test';
import { card, header, newEmail } from './support/auth';

test.use({ colorScheme: 'light' });

/** The fake SAML identity provider (a webServer in playwright.config.ts, PORT_BASE + 6). */
const FAKE_SAML_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT_BASE ?? 3100) + 6}`;

/** Chooses who the fake IdP signs in next (what a person would do on the IdP's own login page). */
async function nextSamlUser(request: APIRequestContext, user: { nameId: string; email?: string }) {
  const response = await request.post(`${FAKE_SAML_URL}/_test/next-user`, { data: user });
  expect(response.status()).toBe(200);
}

test('"Continue with Company SSO" signs a new person in through the SAML IdP and lands on onboarding', async ({
  page,
  request,
}) => {
  const email = newEmail('saml');
  await nextSamlUser(request, { nameId: email });
  await page.goto('/auth');
  const idpVisits: string[] = [];
  const acsPosts: number[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(FAKE_SAML_URL)) idpVisits.push(new URL(r.url()).pathname);
  });
  page.on('response', (r) => {
    if (r.url().endsWith('/auth/saml/acs') && r.request().method() === 'POST') acsPosts.push(r.status());
  });
  const signInUp = page.waitForResponse(
    (r) => r.url().endsWith('/auth/signinup') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Continue with Company SSO' }).click();

  // The IdP answers at once; its page posts the signed response to our ACS, which sends the browser to
  // the prebuilt callback page with a one-time code.
  await page.waitForURL(/\/auth\/callback\/saml\?/);
  expect(idpVisits).toContain('/sso');
  expect(acsPosts).toEqual([303]);
  expect(await (await signInUp).json()).toMatchObject({
    status: 'OK',
    createdNewRecipeUser: true,
    user: { emails: [email], thirdParty: [{ id: 'saml', userId: email }] },
  });
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(header(page).getByTestId('user-email')).toHaveText(email);
  // The address is unverified (SAML_EMAIL_VERIFIED is off): the person still gets the page itself.
  await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('[data-supertokens~="accessDenied"]')).toHaveCount(0);
});

test('a response signed with a key the IdP does not have brings the person back to the card with an error', async ({
  page,
  request,
}) => {
  await nextSamlUser(request, { nameId: newEmail('saml-forged') });
  const tweaks = await request.post(`${FAKE_SAML_URL}/_test/next-tweaks`, {
    data: { signWithImpostorKey: true },
  });
  expect(tweaks.status()).toBe(200);
  await page.goto('/auth');
  let signInUpCalls = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/auth/signinup') && r.method() === 'POST') signInUpCalls += 1;
  });
  await page.getByRole('button', { name: 'Continue with Company SSO' }).click();
  // The ACS refuses it and sends the browser to the callback page with `error` (and no code); the
  // prebuilt page then returns to the card with its general error.
  await expect(page).toHaveURL(/\/auth\/?\?error=signin/);
  await expect(card.container(page)).toContainText('Something went wrong. Please try again.');
  expect(signInUpCalls).toBe(0);
});
