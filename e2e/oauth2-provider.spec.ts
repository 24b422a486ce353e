import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { card, header, latestMessageId, newEmail, nextMessage } from './support/auth';
import { E2E_OAUTH_CLIENT, E2E_RP_ORIGIN } from './support/oauth2';

/**
 * "Sign in with Lumina": a relying party (openid-client, in this test) sends Chromium to
 * /auth/oauth/auth; the prebuilt card shows the app, the person signs in with the emailed code and lands
 * back on the app's redirect URI with a code. The app exchanges it, reads userinfo, refreshes, revokes,
 * and finally ends the session through the SDK's logout page.
 */

test.use({ colorScheme: 'light' });

const REDIRECT_URI = E2E_OAUTH_CLIENT.redirect_uris[0];
const AFTER_LOGOUT = E2E_OAUTH_CLIENT.post_logout_redirect_uris[0];

/**
 * The relying party's pages: a tiny local server that records each URL the browser lands on (the
 * provider reaches it by a 303, which `page.route` does not see).
 */
const seen: string[] = [];
let relyingParty: Server;
test.beforeAll(async () => {
  relyingParty = createServer((req, res) => {
    seen.push(`${E2E_RP_ORIGIN}${req.url}`);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>The app</h1>');
  });
  const { port } = new URL(E2E_RP_ORIGIN);
  await new Promise<void>((resolve) => relyingParty.listen(Number(port), '127.0.0.1', resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => relyingParty.close(resolve));
});

/**
 * Waits until the page's URL starts with `prefix`. It reads `page.url()` rather than waiting for a
 * navigation: `waitForURL`, and `toHaveURL(predicate)` which is built on it, fail outright with
 * net::ERR_ABORTED when one hop of a redirect chain is superseded by the next.
 */
async function landsOn(page: Page, prefix: string): Promise<void> {
  const startsWithPrefix = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(startsWithPrefix);
}

test('an app signs a person in with Lumina: card, code, tokens, userinfo, refresh, revoke, logout', async ({
  page,
  request,
  baseURL,
}) => {
  const config = await oidc.discovery(
    new URL(`${baseURL}/auth`),
    E2E_OAUTH_CLIENT.client_id,
    undefined,
    oidc.ClientSecretBasic(E2E_OAUTH_CLIENT.client_secret),
    { execute: [oidc.allowInsecureRequests] },
  );
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const authUrl = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });

  await page.goto(authUrl.href);
  await expect(page).toHaveURL(/\/auth\?loginChallenge=/);
  // The card names the app (with its logo and a link to it) it signs in to.
  const client = page.locator('[data-supertokens~="authPageTitleOAuthClient"]');
  await expect(client).toContainText(E2E_OAUTH_CLIENT.name);
  await expect(client.locator('a')).toHaveAttribute('href', E2E_OAUTH_CLIENT.client_uri);
  await expect(page.locator('[data-supertokens~="authPageTitleOAuthClientLogo"]')).toHaveAttribute(
    'src',
    E2E_OAUTH_CLIENT.logo_uri,
  );

  const email = newEmail('oauth2');
  const before = await latestMessageId(request, email);
  await card.email(page).fill(email);
  await card.submit(page).click();
  await expect(card.code(page)).toBeVisible();
  const message = await nextMessage(request, email, before);
  await card.code(page).fill(message.code!);
  await card.submit(page).click();

  await landsOn(page, REDIRECT_URI);
  const callback = new URL(page.url());
  expect(callback.searchParams.get('state')).toBe(state);
  expect(callback.searchParams.get('code')).toBeTruthy();

  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  const sub = tokens.claims()!.sub;
  const info = await oidc.fetchUserInfo(config, tokens.access_token, sub);
  expect(info).toMatchObject({ sub, email, email_verified: true });

  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
  expect((await oidc.fetchUserInfo(config, refreshed.access_token, sub)).email).toBe(email);
  const refreshToken = refreshed.refresh_token ?? tokens.refresh_token!;
  await oidc.tokenRevocation(config, refreshToken);
  await expect(oidc.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({
    error: 'invalid_grant',
  });

  // Ending the session: the SDK's logout page asks, the person confirms, the app gets them back.
  const endUrl = oidc.buildEndSessionUrl(config, {
    id_token_hint: tokens.id_token!,
    post_logout_redirect_uri: AFTER_LOGOUT,
    state: 'bye',
  });
  await page.goto(endUrl.href);
  await expect(page).toHaveURL(/\/auth\/oauth\/logout\?logoutChallenge=/);
  await page.locator('[data-supertokens~="container"] button').click();
  // The SDK's page sends the browser to the end-session form twice (its session ends mid-way, which
  // confirms again), so the first of those navigations is aborted by the second.
  await landsOn(page, AFTER_LOGOUT);
  expect(new URL(page.url()).searchParams.get('state')).toBe('bye');
  expect(seen.some((u) => u.startsWith(AFTER_LOGOUT))).toBe(true);
  await expect(oidc.fetchUserInfo(config, refreshed.access_token, sub)).rejects.toBeDefined();

  // Logging out of the app signed the person out of Lumina too.
  await page.goto('/');
  await expect(header(page).getByTestId('user-email')).toHaveCount(0);
});

test('a login challenge that cannot be loaded is dropped and the card shows the generic error', async ({
  page,
}) => {
  await page.goto('/auth?loginChallenge=no-such-challenge');
  await expect(page.locator('[data-supertokens~="generalError"]')).toHaveText(
    'Something went wrong. Please try again.',
  );
  await expect(page).not.toHaveURL(/loginChallenge/);
  await expect(card.email(page)).toBeVisible();
});
