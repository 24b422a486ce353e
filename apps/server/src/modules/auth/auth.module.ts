import { DevMailbox } from '../../adapters/mail/dev-mailbox.mailer.ts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { SmtpMailer } from '../../adapters/mail/smtp.mailer.ts';
import { DevSmsSender } from '../../adapters/sms/dev.sms.ts';
import type { SmsSender } from '../../adapters/sms/sms.ts';
import { WebhookSmsSender } from '../../adapters/sms/webhook.sms.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';
import { UserDirectory } from '../users/users.service.ts';
import type { Clock } from '../../clock.ts';
import { MfaService } from './mfa.service.ts';
import { OAuthProvider } from './oauth2-provider.service.ts';
import { PasswordlessService } from './passwordless.service.ts';
import { CodeGuessLimits } from './code-guesses.ts';
import { RateLimiter } from './rate-limiter.ts';
import { SessionService } from './session.service.ts';
import { cookiePolicy, type CookiePolicy } from './session.transport.ts';
import { SignInHooks } from './sign-in-hooks.ts';
import { KeyEncryption } from './key-encryption.ts';
import { SigningKeys } from './signing-keys.ts';
import { SamlSignIn } from './saml.service.ts';
import { ThirdPartyProviders } from './thirdparty.service.ts';
import { Tenants } from './tenants.ts';
import { WebauthnService } from './webauthn.service.ts';

/** The API base path of the sign-in layer (supertokens `apiBasePath`) and of its web pages (`websiteBasePath`). */
export const AUTH_BASE_PATH = '/auth';

/** Everything the sign-in layer is made of, wired once per container. */
export interface AuthModule {
  config: Config;
  clock: Clock;
  keys: SigningKeys;
  sessions: SessionService;
  users: UserDirectory;
  passwordless: PasswordlessService;
  tenants: Tenants;
  mfa: MfaService;
  thirdParty: ThirdPartyProviders;
  webauthn: WebauthnService;
  /** The SAML identity provider, when one is configured. */
  saml?: SamlSignIn;
  rateLimiter: RateLimiter;
  codeGuesses: CodeGuessLimits;
  hooks: SignInHooks;
  mailer: Mailer;
  /** The development mailbox (email and SMS), when no SMTP server is configured. */
  mailbox?: DevMailbox;
  cookies: CookiePolicy;
  /** "Sign in with Lumina": our OpenID provider (OAUTH_CLIENTS_JSON). */
  oauthProvider: OAuthProvider;
  close(): void;
}

export function createAuthModule(
  db: Database,
  config: Config,
  log: Logger,
  // One clock object per container, so a test can move one app's time without touching another's.
  clock: Clock = { now: () => Date.now() },
): AuthModule {
  const auth = config.auth;
  const mailbox =
    !auth.smtpUrl || !auth.smsWebhookUrl
      ? new DevMailbox(log, { logSecrets: config.env !== 'production' })
      : undefined;
  const mailer: Mailer = auth.smtpUrl ? new SmtpMailer(auth.smtpUrl, auth.mailFrom) : mailbox!;
  const sms: SmsSender = auth.smsWebhookUrl
    ? new WebhookSmsSender(auth.smsWebhookUrl)
    : new DevSmsSender(mailbox!);
  // Seals private keys at rest: the session signing keys and the OpenID provider's keys.
  const encryption = auth.keysEncryption
    ? new KeyEncryption(auth.keysEncryption.current, auth.keysEncryption.previous)
    : undefined;
  const keys = new SigningKeys(db, clock, {
    rotationHours: auth.jwtKeyRotationHours,
    accessTokenLifetimeSeconds: auth.accessTokenLifetimeSeconds,
    encryption,
  });
  const rateLimiter = new RateLimiter(db, clock);
  const cookies = cookiePolicy(auth, config.publicUrl, AUTH_BASE_PATH, config.corsOrigins);
  const users = new UserDirectory(db, clock, config.generation.adminEmails);
  const sessions = new SessionService(db, keys, clock, {
    issuer: `${config.publicUrl}${AUTH_BASE_PATH}`,
    accessTokenLifetimeSeconds: auth.accessTokenLifetimeSeconds,
    refreshTokenLifetimeMinutes: auth.refreshTokenLifetimeMinutes,
    refreshTokenReuseGraceSeconds: auth.refreshTokenReuseGraceSeconds,
  });
  const oauthProvider = new OAuthProvider(db, config, users, clock, cookies, log, AUTH_BASE_PATH, encryption);
  // An app's grant ends with the Lumina session whose sign-in gave it.
  sessions.onRevoked((handles) => oauthProvider.revokeGrantsOfSessions(handles));
  return {
    config,
    clock,
    keys,
    sessions,
    users,
    passwordless: new PasswordlessService(db, clock, mailer, sms, log, {
      ...auth.passwordless,
      webUrl: auth.webUrl,
      webBasePath: AUTH_BASE_PATH,
    }),
    tenants: new Tenants(auth),
    mfa: new MfaService(db, clock, { phoneEnabled: auth.passwordless.contactMethod !== 'EMAIL' }),
    thirdParty: new ThirdPartyProviders(auth.oidcProviders, auth.oauth2Providers, log),
    webauthn: new WebauthnService(db, clock, auth.webauthn),
    saml: auth.saml
      ? new SamlSignIn(db, clock, auth.saml, `${config.publicUrl}${AUTH_BASE_PATH}/saml/login`, log)
      : undefined,
    rateLimiter,
    codeGuesses: new CodeGuessLimits(rateLimiter, clock, auth.rateLimit),
    hooks: new SignInHooks(log),
    mailer,
    mailbox,
    cookies,
    oauthProvider,
    close() {
      if (mailer instanceof SmtpMailer) mailer.close();
    },
  };
}
