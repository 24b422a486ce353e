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
import { PasswordlessService } from './passwordless.service.ts';
import { CodeGuessLimits } from './code-guesses.ts';
import { RateLimiter } from './rate-limiter.ts';
import { SessionService } from './session.service.ts';
import { cookiePolicy, type CookiePolicy } from './session.transport.ts';
import { SignInHooks } from './sign-in-hooks.ts';
import { SigningKeys } from './signing-keys.ts';
import { ThirdPartyProviders } from './thirdparty.service.ts';
import { Tenants } from './tenants.ts';

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
  rateLimiter: RateLimiter;
  codeGuesses: CodeGuessLimits;
  hooks: SignInHooks;
  mailer: Mailer;
  /** The development mailbox (email and SMS), when no SMTP server is configured. */
  mailbox?: DevMailbox;
  cookies: CookiePolicy;
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
  const keys = new SigningKeys(db, clock, {
    rotationHours: auth.jwtKeyRotationHours,
    accessTokenLifetimeSeconds: auth.accessTokenLifetimeSeconds,
  });
  const rateLimiter = new RateLimiter(db, clock);
  return {
    config,
    clock,
    keys,
    sessions: new SessionService(db, keys, clock, {
      issuer: `${config.publicUrl}${AUTH_BASE_PATH}`,
      accessTokenLifetimeSeconds: auth.accessTokenLifetimeSeconds,
      refreshTokenLifetimeMinutes: auth.refreshTokenLifetimeMinutes,
      refreshTokenReuseGraceSeconds: auth.refreshTokenReuseGraceSeconds,
    }),
    users: new UserDirectory(db, clock, config.generation.adminEmails),
    passwordless: new PasswordlessService(db, clock, mailer, sms, log, {
      ...auth.passwordless,
      webUrl: auth.webUrl,
      webBasePath: AUTH_BASE_PATH,
    }),
    tenants: new Tenants(auth),
    mfa: new MfaService(db, clock, { phoneEnabled: auth.passwordless.contactMethod !== 'EMAIL' }),
    thirdParty: new ThirdPartyProviders(auth.oidcProviders, auth.oauth2Providers, log),
    rateLimiter,
    codeGuesses: new CodeGuessLimits(rateLimiter, clock, auth.rateLimit),
    hooks: new SignInHooks(log),
    mailer,
    mailbox,
    cookies: cookiePolicy(auth, config.publicUrl, AUTH_BASE_PATH, config.corsOrigins),
    close() {
      if (mailer instanceof SmtpMailer) mailer.close();
    },
  };
}
