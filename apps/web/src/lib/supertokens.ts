import SuperTokens from 'supertokens-auth-react';
import EmailVerification from 'supertokens-auth-react/recipe/emailverification';
import MultiFactorAuth from 'supertokens-auth-react/recipe/multifactorauth';
import Multitenancy from 'supertokens-auth-react/recipe/multitenancy';
import OAuth2Provider from 'supertokens-auth-react/recipe/oauth2provider';
import Passwordless from 'supertokens-auth-react/recipe/passwordless';
import Session from 'supertokens-auth-react/recipe/session';
import ThirdParty from 'supertokens-auth-react/recipe/thirdparty';
import TOTP from 'supertokens-auth-react/recipe/totp';
import WebAuthn from 'supertokens-auth-react/recipe/webauthn';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import {
  AUTH_BASE_PATH,
  authAppInfo,
  contactMethodFor,
  emailVerificationModeFor,
  fetchPublicAuthConfig,
  gatingClaims,
  loginMethodsUrl,
  successRedirectPath,
  type LoginMethods,
} from './supertokens-config';
import { webLockFactory } from './supertokens-locks';
import { SDK_TRANSLATIONS } from './supertokens-translations';

/**
 * The SuperTokens SDK, initialised once. This module is only reached through `loadSuperTokens()` in
 * `lib/auth.ts` (a dynamic import), so its code stays out of the product bundle. The prebuilt UI lives
 * in `features/auth` and is loaded only by the /auth routes.
 */

/** A session as the product sees it. */
export interface SessionInfo {
  userId: string;
  /**
   * Every claim that gates product routes passes (st-mfa; st-ev when verification is required). False
   * while a second factor or a required email verification is pending: no product call may go out then.
   */
  complete: boolean;
}

export interface InitOptions {
  /**
   * Called with the session whenever one appears or changes, and with null when it ends.
   * `claimsChanged` is true when the gating claims changed validity (a factor or a verification done).
   */
  onSessionChange: (session: SessionInfo | null, claimsChanged?: boolean) => void;
  /** Called after each successful first-factor sign-in (Google or passwordless). */
  onSignIn: (event: { userId: string; createdNewUser: boolean; recipeId: string }) => void;
}

/** Card styling: palette and font come from our theme through CSS variables (they cross the shadow root). */
export const AUTH_STYLE = `
  [data-supertokens~=container] {
    --palette-background: var(--st-background);
    --palette-inputBackground: var(--st-input-background);
    --palette-inputBorder: var(--st-input-border);
    --palette-primary: var(--st-primary);
    --palette-primaryBorder: var(--st-primary-border);
    --palette-textTitle: var(--st-text-title);
    --palette-textLabel: var(--st-text-label);
    --palette-textInput: var(--st-text-input);
    --palette-textPrimary: var(--st-text-primary);
    --palette-textGray: var(--st-text-gray);
    --palette-textLink: var(--st-text-link);
    --palette-buttonText: var(--st-button-text);
    --palette-error: var(--st-error);
    --palette-errorBackground: var(--st-error-background);
    --palette-success: var(--st-success);
    --palette-successBackground: var(--st-success-background);
    --palette-superTokensBrandingBackground: var(--st-branding-background);
    --palette-superTokensBrandingText: var(--st-branding-text);
    --palette-buttonGreyedOut: var(--st-button-greyed-out);
    font-family: var(--font-sans, system-ui, sans-serif);
    box-sizing: border-box;
    width: 420px;
    border-radius: 24px;
    border: 1px solid rgb(var(--st-card-border));
    box-shadow: 0 10px 40px -12px rgba(76, 29, 149, 0.18);
  }
  @media (max-width: 440px) {
    [data-supertokens~=container] { width: calc(100vw - 24px); }
  }
  [data-supertokens~=button] {
    border-radius: 12px;
    height: 44px;
    font-weight: 600;
  }
  [data-supertokens~=input], [data-supertokens~=inputWrapper] { border-radius: 12px; }
  [data-supertokens~=providerButton] { border-radius: 12px; }
  [data-supertokens~=headerTitle] { letter-spacing: -0.01em; }
  [data-supertokens~=divider] { border-bottom-color: rgb(var(--st-card-border)); }
`;

let initialised = false;
/** The last seen validity of the gating claims (see `reportSession`); undefined without a session. */
let lastClaims: string | undefined;
/** Whether `st-ev` gates product routes (the server's EMAIL_VERIFICATION=required). */
let emailVerificationMode: 'OPTIONAL' | 'REQUIRED' = 'OPTIONAL';
/** Set by `initSuperTokens`: reads the session again and tells the app (see `recheckSession`). */
let reportSession: () => Promise<void> = async () => undefined;

async function fetchLoginMethods(): Promise<LoginMethods | undefined> {
  try {
    const url = loginMethodsUrl(env.apiBase, window.location.origin, window.location.search);
    const response = await fetch(url, {
      headers: { rid: 'multitenancy', 'fdi-version': '4.1' },
    });
    if (!response.ok) return undefined;
    return (await response.json()) as LoginMethods;
  } catch {
    return undefined;
  }
}

/** Initialises the SDK with every recipe the product uses. Idempotent. */
export async function initSuperTokens(options: InitOptions): Promise<void> {
  if (initialised) return;
  initialised = true;
  const [loginMethods, authConfig] = await Promise.all([
    fetchLoginMethods(),
    fetchPublicAuthConfig(env.apiBase),
  ]);
  const appInfo = authAppInfo(env.apiBase, window.location.origin);
  emailVerificationMode = emailVerificationModeFor(authConfig?.emailVerification);

  /**
   * Tells the app about the session, and whether the claims that gate product calls (st-mfa and st-ev
   * validity) changed since it last looked: a second factor or an email verification was just completed.
   */
  reportSession = async () => {
    const previous = lastClaims;
    const session = await currentSession();
    if (!session) return options.onSessionChange(null);
    options.onSessionChange(session, previous !== undefined && lastClaims !== previous);
  };

  const reportSignIn = (recipeId: string) => (event: { action: string }) => {
    if (event.action !== 'SUCCESS' || !('user' in event)) return;
    const success = event as unknown as {
      isNewRecipeUser: boolean;
      user: { id: string; loginMethods: unknown[] };
    };
    options.onSignIn({
      userId: success.user.id,
      createdNewUser: success.isNewRecipeUser && success.user.loginMethods.length === 1,
      recipeId,
    });
  };

  SuperTokens.init({
    appInfo: { appName: 'Lumina', ...appInfo },
    // First factors and third-party providers come from the server's GET /auth/loginmethods.
    usesDynamicLoginMethods: true,
    termsOfServiceLink: paths.terms,
    privacyPolicyLink: paths.privacy,
    style: AUTH_STYLE,
    // Our words on the SDK's screens: factor names as on the account page, "Sign out" for leaving.
    languageTranslations: { defaultLanguage: 'en', translations: SDK_TRANSLATIONS },
    getRedirectionURL: async (context) => {
      if (context.action !== 'SUCCESS') return undefined;
      return successRedirectPath(context);
    },
    recipeList: [
      Multitenancy.init(),
      // REQUIRED when the server requires verified emails (EMAIL_VERIFICATION=required): SessionAuth then
      // sends an unverified user to /auth/verify-email. The server enforces st-ev either way.
      EmailVerification.init({ mode: emailVerificationMode }),
      Passwordless.init({
        contactMethod: contactMethodFor(loginMethods),
        onHandleEvent: reportSignIn('passwordless'),
      }),
      ThirdParty.init({
        // Providers are the ones the server lists; the SDK maps known ids (google, github, …) to its buttons.
        signInAndUpFeature: { providers: [] },
        onHandleEvent: reportSignIn('thirdparty'),
      }),
      MultiFactorAuth.init(),
      TOTP.init(),
      // "Sign in with Lumina": the auth page continues an app's sign-in when `?loginChallenge=` is in the
      // URL (the card shows the app's name, logo and link), and /auth/oauth/logout confirms an app's logout.
      OAuth2Provider.init(),
      // Passkeys: "Continue with passkey" on the card, /auth/mfa/webauthn, /auth/webauthn/recover.
      WebAuthn.init({ onHandleEvent: reportSignIn('webauthn') }),
      Session.init({
        tokenTransferMethod: 'header',
        // Locks the browser frees when a page goes (supertokens-locks.ts); passed through to supertokens-website.
        ...sessionLocks(),
        onHandleEvent: (event) => {
          switch (event.action) {
            case 'SESSION_CREATED':
            case 'REFRESH_SESSION':
            case 'ACCESS_TOKEN_PAYLOAD_UPDATED':
              // The event carries no user id; read it once the SDK has stored the new front token.
              setTimeout(() => void reportSession().catch(console.error), 0);
              break;
            case 'SIGN_OUT':
            case 'UNAUTHORISED':
              lastClaims = undefined;
              options.onSessionChange(null);
              break;
            default:
              break;
          }
        },
      }),
    ],
  });
}

/**
 * `lockFactory` for supertokens-website. The SDK forwards every Session.init setting to it, but its types
 * do not list this one, hence the cast.
 */
function sessionLocks(): Record<string, never> {
  const lockFactory = webLockFactory();
  return (lockFactory ? { lockFactory } : {}) as Record<string, never>;
}

export async function getAccessToken(): Promise<string | undefined> {
  return Session.getAccessToken();
}

/**
 * The session when one exists (refreshing an expired access token first), else null. Remembers the
 * gating claims' validity, which `reportSession` compares with the next reading.
 */
export async function currentSession(): Promise<SessionInfo | null> {
  if (!(await Session.doesSessionExist())) return null;
  const payload = (await Session.getAccessTokenPayloadSecurely()) as Record<string, unknown>;
  const claims = gatingClaims(payload, emailVerificationMode);
  lastClaims = claims.key;
  return { userId: await Session.getUserId(), complete: claims.complete };
}

/**
 * Reads the session again and tells the app. The SDK's guard calls this once it has validated the claims,
 * so the app's gate never stays closed on an access token that has since completed its second factor.
 */
export async function recheckSession(): Promise<void> {
  await reportSession();
}

export async function signOut(): Promise<void> {
  await Session.signOut();
}

/** Opens the prebuilt set-up screen of a factor (e.g. /auth/mfa/totp?setup=true) and returns here afterwards. */
export async function setUpFactor(factorId: string, navigate: (to: string) => void): Promise<void> {
  await MultiFactorAuth.redirectToFactor({
    factorId,
    forceSetup: true,
    redirectBack: true,
    navigate: { push: navigate, goBack: () => window.history.back() },
  });
}

/**
 * Removes every authenticator-app device, which turns TOTP off for the user; true when done. The server
 * lets only a session that entered a code from the app in the last few minutes take it away (a 403
 * `st-mfa` otherwise), so on that refusal the prebuilt code screen opens as a step-up, comes back here,
 * and false is returned: the person turns it off again with the fresh code behind them.
 */
export async function removeTotpDevices(navigate: (to: string) => void): Promise<boolean> {
  const { devices } = await TOTP.listDevices();
  try {
    for (const device of devices) await TOTP.removeDevice({ deviceName: device.name });
  } catch (err) {
    // The SDK throws the fetch Response of a non-2xx answer.
    if (!(err instanceof Response) || err.status !== 403) throw err;
    await MultiFactorAuth.redirectToFactor({
      factorId: 'totp',
      stepUp: true,
      redirectBack: true,
      navigate: { push: navigate, goBack: () => window.history.back() },
    });
    return false;
  }
  return true;
}

/** What adding a passkey came to: done, or why not (the account page explains each). */
export type AddPasskeyResult = 'OK' | 'ALREADY_REGISTERED' | 'CANCELLED' | 'NOT_SUPPORTED' | 'FAILED';

/**
 * Adds a passkey for the signed-in person (`POST /auth/webauthn/options/register`, the browser's
 * passkey dialog, `POST /auth/webauthn/credential`), with the name they gave it.
 */
export async function addPasskey(name: string, email: string | null): Promise<AddPasskeyResult> {
  const recipeUserId = await Session.getUserId();
  const result = await WebAuthn.createAndRegisterCredentialForSessionUser({
    recipeUserId,
    email: email ?? '',
    userContext: {},
    options: {
      // The name rides along with the registration (our server reads it; the FDI has no field for it).
      preAPIHook: async ({ url, requestInit }) => {
        if (!name || !url.endsWith('/webauthn/credential') || typeof requestInit.body !== 'string') {
          return { url, requestInit };
        }
        const body = JSON.parse(requestInit.body) as Record<string, unknown>;
        return { url, requestInit: { ...requestInit, body: JSON.stringify({ ...body, name }) } };
      },
    },
  });
  switch (result.status) {
    case 'OK':
      return 'OK';
    case 'AUTHENTICATOR_ALREADY_REGISTERED':
      return 'ALREADY_REGISTERED';
    case 'WEBAUTHN_NOT_SUPPORTED':
      return 'NOT_SUPPORTED';
    case 'FAILED_TO_REGISTER_USER': {
      const error = (result as { error?: { name?: string } }).error;
      return error?.name === 'NotAllowedError' || error?.name === 'AbortError' ? 'CANCELLED' : 'FAILED';
    }
    default:
      return 'FAILED';
  }
}

/** Removes one of the signed-in person's passkeys (`POST /auth/webauthn/credential/remove`). */
export async function removePasskey(webauthnCredentialId: string): Promise<boolean> {
  const result = await WebAuthn.removeCredential({ webauthnCredentialId, userContext: {} });
  return result.status === 'OK' || result.status === 'CREDENTIAL_NOT_FOUND_ERROR';
}

/** The server's email-verification mode as the SDK was initialised with it (OPTIONAL before that). */
export function emailVerificationModeNow(): 'OPTIONAL' | 'REQUIRED' {
  return emailVerificationMode;
}

export { AUTH_BASE_PATH };

/** What `loadSuperTokens()` resolves to. */
export interface SuperTokensModule {
  initSuperTokens: typeof initSuperTokens;
  getAccessToken: typeof getAccessToken;
  currentSession: typeof currentSession;
  recheckSession: typeof recheckSession;
  signOut: typeof signOut;
  setUpFactor: typeof setUpFactor;
  removeTotpDevices: typeof removeTotpDevices;
  addPasskey: typeof addPasskey;
  removePasskey: typeof removePasskey;
}
