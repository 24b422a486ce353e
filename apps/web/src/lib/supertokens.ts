import SuperTokens from 'supertokens-auth-react';
import EmailVerification from 'supertokens-auth-react/recipe/emailverification';
import MultiFactorAuth from 'supertokens-auth-react/recipe/multifactorauth';
import Multitenancy from 'supertokens-auth-react/recipe/multitenancy';
import Passwordless from 'supertokens-auth-react/recipe/passwordless';
import Session from 'supertokens-auth-react/recipe/session';
import ThirdParty from 'supertokens-auth-react/recipe/thirdparty';
import TOTP from 'supertokens-auth-react/recipe/totp';
import { env } from '@/config/env';
import { paths } from '@/config/paths';
import {
  AUTH_BASE_PATH,
  authAppInfo,
  contactMethodFor,
  emailVerificationModeFor,
  fetchPublicAuthConfig,
  loginMethodsUrl,
  successRedirectPath,
  type LoginMethods,
} from './supertokens-config';

/**
 * The SuperTokens SDK, initialised once. This module is only reached through `loadSuperTokens()` in
 * `lib/auth.ts` (a dynamic import), so its code stays out of the product bundle. The prebuilt UI lives
 * in `features/auth` and is loaded only by the /auth routes.
 */

export interface InitOptions {
  /**
   * Called with the user id whenever a session appears or changes, and with null when it ends.
   * `claimsChanged` is true when the access token's claims were updated (a factor or a verification done).
   */
  onSessionChange: (userId: string | null, claimsChanged?: boolean) => void;
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

  /**
   * Tells the app about the session, and whether the claims that gate product calls (st-mfa and st-ev
   * validity) changed since it last looked: a second factor or an email verification was just completed.
   */
  const reportSession = async () => {
    const previous = lastClaims;
    const userId = await currentUserId();
    if (!userId) return options.onSessionChange(null);
    const claims = await gatingClaims();
    lastClaims = claims;
    options.onSessionChange(userId, previous !== undefined && claims !== previous);
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
    languageTranslations: { defaultLanguage: 'en' },
    getRedirectionURL: async (context) => {
      if (context.action !== 'SUCCESS') return undefined;
      return successRedirectPath(context);
    },
    recipeList: [
      Multitenancy.init(),
      // REQUIRED when the server requires verified emails (EMAIL_VERIFICATION=required): SessionAuth then
      // sends an unverified user to /auth/verify-email. The server enforces st-ev either way.
      EmailVerification.init({ mode: emailVerificationModeFor(authConfig?.emailVerification) }),
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
      Session.init({
        tokenTransferMethod: 'header',
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

export async function getAccessToken(): Promise<string | undefined> {
  return Session.getAccessToken();
}

/** The validity of the claims that gate product calls (st-mfa, st-ev) in the current access token. */
async function gatingClaims(): Promise<string> {
  const payload = (await Session.getAccessTokenPayloadSecurely()) as Record<
    string,
    { v?: unknown } | undefined
  >;
  return JSON.stringify([payload['st-mfa']?.v, payload['st-ev']?.v]);
}

/** The user id when a session exists (refreshing an expired access token first), else null. */
export async function currentUserId(): Promise<string | null> {
  if (!(await Session.doesSessionExist())) return null;
  lastClaims ??= await gatingClaims();
  return Session.getUserId();
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

/** Removes every authenticator-app device, which turns TOTP off for the user. */
export async function removeTotpDevices(): Promise<void> {
  const { devices } = await TOTP.listDevices();
  for (const device of devices) await TOTP.removeDevice({ deviceName: device.name });
}

export { AUTH_BASE_PATH };

/** What `loadSuperTokens()` resolves to. */
export interface SuperTokensModule {
  initSuperTokens: typeof initSuperTokens;
  getAccessToken: typeof getAccessToken;
  currentUserId: typeof currentUserId;
  signOut: typeof signOut;
  setUpFactor: typeof setUpFactor;
  removeTotpDevices: typeof removeTotpDevices;
}
