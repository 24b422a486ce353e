import { defineConfig, devices } from '@playwright/test';
import { join } from 'node:path';
import { chromiumLaunch } from './e2e/support/browser';
import { E2E_OAUTH_CLIENT } from './e2e/support/oauth2';
import { E2E_REFERRALS, FAKE_STRIPE_KEYS } from './e2e/support/stripe';

/** E2E_PORT_BASE moves the three ports (for two checkouts running browser tests side by side). */
const PORT_BASE = Number(process.env.E2E_PORT_BASE ?? 3100);
const PORT = PORT_BASE;
const BASE_URL = `http://127.0.0.1:${PORT}`;
/** A second server whose access tokens live 5 s (the server's minimum), for the silent-refresh test. */
const SHORT_TOKEN_PORT = PORT_BASE + 1;
const SHORT_TOKEN_URL = `http://127.0.0.1:${SHORT_TOKEN_PORT}`;
const SHORT_TOKEN_SPEC = /auth-refresh\.spec\.ts$/;
/**
 * A fourth server reached as `localhost`: browsers refuse passkeys on an IP address (the WebAuthn
 * relying-party id must be a domain), so e2e/passkeys.spec.ts talks to this one.
 */
const PASSKEYS_PORT = PORT_BASE + 10;
const PASSKEYS_URL = `http://localhost:${PASSKEYS_PORT}`;
const PASSKEYS_SPEC = /passkeys\.spec\.ts$/;
/** The fake OpenID provider standing in for Google (apps/server/test/fakes/oidc-provider.cli.ts); e2e/support/auth.ts knows it too. */
const FAKE_OIDC_PORT = PORT_BASE + 2;
const FAKE_OIDC_URL = `http://127.0.0.1:${FAKE_OIDC_PORT}`;
const FAKE_OIDC_CLIENT = { id: 'lumina-e2e', secret: 'lumina-e2e-secret' };
/**
 * Google Workspace domains of the fake provider (their addresses get `hd`): the main server allows only
 * the first (GOOGLE_WORKSPACES_HD); e2e/auth-workspaces.spec.ts signs in with both.
 */
const FAKE_WORKSPACE_DOMAINS = ['lumina-workspace.test', 'other-workspace.test'];
/** The fake PostHog capture endpoint (apps/server/test/fakes/posthog-server.cli.ts); e2e/analytics.spec.ts reads it. */
const FAKE_POSTHOG_PORT = PORT_BASE + 3;
const FAKE_POSTHOG_URL = `http://127.0.0.1:${FAKE_POSTHOG_PORT}`;
/**
 * A third server that takes payments through the Stripe fake (apps/server/test/fakes/stripe-server.cli.ts):
 * its hosted checkout page pays and sends the signed webhook here; e2e/support/stripe.ts holds its keys
 * and this server's referral settings, and refunds.
 */
const STRIPE_APP_PORT = PORT_BASE + 4;
const STRIPE_APP_URL = `http://127.0.0.1:${STRIPE_APP_PORT}`;
const STRIPE_SPEC = /-stripe\.spec\.ts$/;
const FAKE_STRIPE_PORT = PORT_BASE + 5;
const FAKE_STRIPE_URL = `http://127.0.0.1:${FAKE_STRIPE_PORT}`;
/**
 * The fake SAML identity provider (apps/server/test/fakes/saml-idp.cli.ts) behind the sign-in card's
 * "Company SSO" button; it writes the certificate it signs with to SAML_CERT_FILE before it listens.
 */
const FAKE_SAML_PORT = PORT_BASE + 6;
const FAKE_SAML_URL = `http://127.0.0.1:${FAKE_SAML_PORT}`;
const SAML_CERT_FILE = join('.tmp', `e2e-saml-idp-${process.pid}.pem`);

const chromium = {
  ...devices['Desktop Chrome'],
  headless: true,
  launchOptions: chromiumLaunch,
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: [SHORT_TOKEN_SPEC, STRIPE_SPEC, PASSKEYS_SPEC], use: chromium },
    {
      name: 'chromium-passkeys',
      testMatch: PASSKEYS_SPEC,
      use: { ...chromium, baseURL: PASSKEYS_URL },
    },
    {
      name: 'chromium-short-token',
      testMatch: SHORT_TOKEN_SPEC,
      use: { ...chromium, baseURL: SHORT_TOKEN_URL },
    },
    {
      name: 'chromium-stripe',
      testMatch: STRIPE_SPEC,
      use: { ...chromium, baseURL: STRIPE_APP_URL },
    },
  ],
  // Started one after the other, so only the first builds the web app when it is stale.
  webServer: [
    {
      command: `node --import tsx apps/server/test/fakes/oidc-provider.cli.ts --port ${FAKE_OIDC_PORT} --client-id ${FAKE_OIDC_CLIENT.id} --client-secret ${FAKE_OIDC_CLIENT.secret} --hosted-domains ${FAKE_WORKSPACE_DOMAINS.join(',')}`,
      url: `${FAKE_OIDC_URL}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `node --import tsx apps/server/test/fakes/posthog-server.cli.ts --port ${FAKE_POSTHOG_PORT}`,
      url: `${FAKE_POSTHOG_URL}/_test/events`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `node --import tsx apps/server/test/fakes/saml-idp.cli.ts --port ${FAKE_SAML_PORT} --cert-file ${SAML_CERT_FILE}`,
      url: `${FAKE_SAML_URL}/metadata`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node scripts/start.mjs',
      url: `${BASE_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        DATA_DIR: join('.tmp', `e2e-data-${process.pid}`),
        NODE_ENV: 'test',
        // Magic links point at the address the browser uses.
        PUBLIC_URL: BASE_URL,
        // "Continue with Google" goes through the real OpenID code path to the fake provider.
        GOOGLE_CLIENT_ID: FAKE_OIDC_CLIENT.id,
        GOOGLE_CLIENT_SECRET: FAKE_OIDC_CLIENT.secret,
        GOOGLE_ISSUER: FAKE_OIDC_URL,
        // "Continue with Google Workspaces": the same fake provider, one allowed Workspace domain.
        GOOGLE_WORKSPACES_CLIENT_ID: FAKE_OIDC_CLIENT.id,
        GOOGLE_WORKSPACES_CLIENT_SECRET: FAKE_OIDC_CLIENT.secret,
        GOOGLE_WORKSPACES_ISSUER: FAKE_OIDC_URL,
        GOOGLE_WORKSPACES_HD: FAKE_WORKSPACE_DOMAINS[0]!,
        // The operator of e2e/ux.spec.ts (set-up notes are shown to operators only).
        ADMIN_EMAILS: 'operator@example.com',
        // Product analytics go to the local fake capture endpoint (the browser learns it from /api/config).
        POSTHOG_KEY: 'phc_e2e_key',
        POSTHOG_HOST: FAKE_POSTHOG_URL,
        // "Sign in with Lumina": one first-party app (e2e/oauth2-provider.spec.ts; its callback is PORT_BASE + 7).
        OAUTH_CLIENTS_JSON: JSON.stringify([E2E_OAUTH_CLIENT]),
        // A tenant that admits only one email domain (e2e/tenant-domains.spec.ts, claim st-t-dmns).
        TENANTS_JSON: JSON.stringify({ acme: { allowedDomains: ['acme.example'] } }),
        // The signing keys are stored encrypted, as in production (a fixed test-only key).
        AUTH_KEYS_ENCRYPTION_KEY: Buffer.alloc(32, 'lumina-e2e').toString('base64'),
        // "Continue with Company SSO" signs in through the fake SAML IdP (real signed assertions).
        SAML_IDP_ENTRY_POINT: `${FAKE_SAML_URL}/sso`,
        SAML_IDP_CERT_FILE: SAML_CERT_FILE,
        SAML_IDP_ISSUER: `${FAKE_SAML_URL}/metadata`,
        SAML_PROVIDER_NAME: 'Company SSO',
      },
    },
    {
      command: 'node scripts/start.mjs',
      url: `${SHORT_TOKEN_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(SHORT_TOKEN_PORT),
        DATA_DIR: join('.tmp', `e2e-data-${process.pid}-short-token`),
        NODE_ENV: 'test',
        PUBLIC_URL: SHORT_TOKEN_URL,
        ACCESS_TOKEN_LIFETIME_SECONDS: '5',
        SKIP_WEB_BUILD: '1',
      },
    },
    {
      command: 'node scripts/start.mjs',
      url: `${PASSKEYS_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PASSKEYS_PORT),
        DATA_DIR: join('.tmp', `e2e-data-${process.pid}-passkeys`),
        NODE_ENV: 'test',
        PUBLIC_URL: PASSKEYS_URL,
        SKIP_WEB_BUILD: '1',
      },
    },
    {
      command: `node --import tsx apps/server/test/fakes/stripe-server.cli.ts --port ${FAKE_STRIPE_PORT} --secret-key ${FAKE_STRIPE_KEYS.secret} --webhook-secret ${FAKE_STRIPE_KEYS.webhook} --webhook-url ${STRIPE_APP_URL}/api/webhooks/stripe`,
      url: `${FAKE_STRIPE_URL}/_test/sessions`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node scripts/start.mjs',
      url: `${STRIPE_APP_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(STRIPE_APP_PORT),
        DATA_DIR: join('.tmp', `e2e-data-${process.pid}-stripe`),
        NODE_ENV: 'test',
        PUBLIC_URL: STRIPE_APP_URL,
        // The web app is built (when stale) by the first server.
        SKIP_WEB_BUILD: '1',
        STRIPE_SECRET_KEY: FAKE_STRIPE_KEYS.secret,
        STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_KEYS.webhook,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: String(FAKE_STRIPE_PORT),
        STRIPE_API_PROTOCOL: 'http',
        // A referrer who signed up a minute ago is rewarded at once.
        REFERRAL_MIN_REFERRER_AGE_HOURS: '0',
        REFERRAL_REWARD_CREDITS: String(E2E_REFERRALS.reward),
        REFERRAL_WELCOME_CREDITS: String(E2E_REFERRALS.welcome),
        REFERRAL_MONTHLY_CAP: '5',
        REFERRAL_BIND_WINDOW_DAYS: '1',
        // Rewards spendable at once: the settling period has its own server tests.
        REFERRAL_SETTLE_DAYS: '0',
        // Every browser here is 127.0.0.1: each spec's browser says which person's address it stands
        // for (X-Forwarded-For), so two people are not taken for one (a referral farm).
        TRUST_PROXY: 'loopback',
      },
    },
  ],
});
