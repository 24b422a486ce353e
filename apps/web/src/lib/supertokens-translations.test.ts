import { describe, expect, it } from 'vitest';
import { EmailPasswordPreBuiltUI } from 'supertokens-auth-react/recipe/emailpassword/prebuiltui';
import { EmailVerificationPreBuiltUI } from 'supertokens-auth-react/recipe/emailverification/prebuiltui';
import { MultiFactorAuthPreBuiltUI } from 'supertokens-auth-react/recipe/multifactorauth/prebuiltui';
import { OAuth2ProviderPreBuiltUI } from 'supertokens-auth-react/recipe/oauth2provider/prebuiltui';
import { PasswordlessPreBuiltUI } from 'supertokens-auth-react/recipe/passwordless/prebuiltui';
import { SessionPreBuiltUI } from 'supertokens-auth-react/recipe/session/prebuiltui';
import { ThirdPartyPreBuiltUI } from 'supertokens-auth-react/recipe/thirdparty/prebuiltui';
import { TOTPPreBuiltUI } from 'supertokens-auth-react/recipe/totp/prebuiltui';
import { WebauthnPreBuiltUI } from 'supertokens-auth-react/recipe/webauthn/prebuiltui';
import commonEn from '../../public/locales/en/common.json';
import { FACTOR_NAMES, SDK_TRANSLATIONS, SIGN_OUT } from './supertokens-translations';

type Table = Record<string, string | undefined>;

/**
 * Every English table the SDK's prebuilt screens read (each already includes the common strings), whether
 * or not we mount that recipe today, so a recipe added later is covered too. The passkey UI keeps its
 * table on the instance, not on the class.
 */
const sdkTables: Record<string, Table> = {
  emailpassword: EmailPasswordPreBuiltUI.languageTranslations.en!,
  emailverification: EmailVerificationPreBuiltUI.languageTranslations.en!,
  multifactorauth: MultiFactorAuthPreBuiltUI.languageTranslations.en!,
  oauth2provider: OAuth2ProviderPreBuiltUI.languageTranslations.en!,
  passwordless: PasswordlessPreBuiltUI.languageTranslations.en!,
  session: SessionPreBuiltUI.languageTranslations.en!,
  thirdparty: ThirdPartyPreBuiltUI.languageTranslations.en!,
  totp: TOTPPreBuiltUI.languageTranslations.en!,
  webauthn: new WebauthnPreBuiltUI(undefined as never).languageTranslations.en!,
};

const ours = SDK_TRANSLATIONS.en!;

/**
 * The text a screen shows for each key once our table is laid over the SDK's (as the SDK does: ours wins
 * key by key). A key whose value is undefined is shown as written (the SDK's server-message keys).
 */
function visibleStrings(table: Table): [key: string, text: string][] {
  const merged: Table = { ...table, ...ours };
  return Object.entries(merged).map(([key, value]) => [key, value ?? key]);
}

/** Words for things we name differently: factor jargon and the other words for leaving. */
const FORBIDDEN = [/TOTP/, /OTP/, /Logout/, /Log out/, /Sign Out/, /log ?out/i, /SIGN OUT/];

describe('SDK screen wording', () => {
  it.each(Object.keys(sdkTables))(
    'the %s screens never say TOTP, OTP, Logout, Log out or Sign Out',
    (recipe) => {
      const table = sdkTables[recipe]!;
      expect(Object.keys(table).length).toBeGreaterThan(10);
      const offending = visibleStrings(table).filter(([, text]) => FORBIDDEN.some((word) => word.test(text)));
      expect(offending).toEqual([]);
    },
  );

  it('overrides only keys the SDK has (a renamed key would silently stop applying)', () => {
    const known = new Set(Object.values(sdkTables).flatMap((table) => Object.keys(table)));
    expect(Object.keys(ours).filter((key) => !known.has(key))).toEqual([]);
  });

  it('names each factor as the account page does, and says "Sign out" as the header does', () => {
    expect(ours.TOTP_MFA_NAME).toBe(FACTOR_NAMES.totp);
    expect(ours.PWLESS_MFA_OTP_EMAIL_NAME).toBe(FACTOR_NAMES['otp-email']);
    expect(ours.PWLESS_MFA_OTP_PHONE_NAME).toBe(FACTOR_NAMES['otp-phone']);
    expect(ours.WEBAUTHN_MFA_NAME).toBe(FACTOR_NAMES.webauthn);
    expect(commonEn.account.factors.totp.title).toBe(FACTOR_NAMES.totp);
    expect(commonEn.account.factors['otp-email'].title).toBe(FACTOR_NAMES['otp-email']);
    expect(commonEn.header.signOut).toBe(SIGN_OUT);
    for (const key of ['MULTI_FACTOR_AUTH_LOGOUT', 'PWLESS_MFA_FOOTER_LOGOUT', 'TOTP_MFA_LOGOUT', 'LOGOUT']) {
      expect(ours[key], key).toBe(SIGN_OUT);
    }
  });

  it('our own strings use the same words: no factor jargon, and leaving is always "Sign out"', () => {
    const strings: string[] = [];
    const walk = (node: unknown) => {
      if (typeof node === 'string') strings.push(node);
      else if (node && typeof node === 'object') Object.values(node).forEach(walk);
    };
    walk(commonEn);
    expect(strings.filter((text) => FORBIDDEN.some((word) => word.test(text)))).toEqual([]);
  });
});
