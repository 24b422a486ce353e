import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { SuperTokensWrapper } from 'supertokens-auth-react';
import { getSuperTokensRoutesForReactRouterDom } from 'supertokens-auth-react/ui';
import { EmailVerificationPreBuiltUI } from 'supertokens-auth-react/recipe/emailverification/prebuiltui';
import { MultiFactorAuthPreBuiltUI } from 'supertokens-auth-react/recipe/multifactorauth/prebuiltui';
import { OAuth2ProviderPreBuiltUI } from 'supertokens-auth-react/recipe/oauth2provider/prebuiltui';
import { PasswordlessPreBuiltUI } from 'supertokens-auth-react/recipe/passwordless/prebuiltui';
import { ThirdPartyPreBuiltUI } from 'supertokens-auth-react/recipe/thirdparty/prebuiltui';
import { TOTPPreBuiltUI } from 'supertokens-auth-react/recipe/totp/prebuiltui';
import { WebauthnPreBuiltUI } from 'supertokens-auth-react/recipe/webauthn/prebuiltui';
import { AUTH_BASE_PATH } from '@/lib/supertokens-config';

/**
 * Every prebuilt screen the product shows: sign-in, third-party callback, MFA chooser, TOTP, email OTP,
 * verify email, passkeys, and an app's logout confirmation (Sign in with Lumina).
 */
const preBuiltUIs = [
  PasswordlessPreBuiltUI,
  ThirdPartyPreBuiltUI,
  MultiFactorAuthPreBuiltUI,
  TOTPPreBuiltUI,
  EmailVerificationPreBuiltUI,
  OAuth2ProviderPreBuiltUI,
  WebauthnPreBuiltUI,
];

/**
 * What the SDK reads from react-router (v6+ API: no `withRouter`). Passing just these, not the whole
 * module namespace, keeps react-router tree-shaken in the shared vendor chunk.
 */
const reactRouterForSdk = { Route, useLocation, useNavigate };

/**
 * The official prebuilt UI, unmodified, mounted under `/auth/*`: /auth, /auth/verify,
 * /auth/callback/{providerId}, /auth/mfa, /auth/mfa/otp-email, /auth/mfa/totp, /auth/mfa/webauthn,
 * /auth/verify-email, /auth/webauthn/recover, /auth/oauth/logout and /auth/try-refresh.
 */
export function AuthRoutes() {
  return (
    <SuperTokensWrapper>
      <Routes>{getSuperTokensRoutesForReactRouterDom(reactRouterForSdk, preBuiltUIs, AUTH_BASE_PATH)}</Routes>
    </SuperTokensWrapper>
  );
}
