/**
 * What the SDK's prebuilt sign-in screens say, in our words (SuperTokens.init
 * `languageTranslations.translations`; the SDK lays these over its own tables, key by key).
 *
 * One name per factor, the same as on the account page: "Authenticator app" (TOTP), "Code by email"
 * (otp-email), "Code by text message" (otp-phone), "Passkey" (webauthn). One word for leaving:
 * "Sign out", as in our header. No screen says "OTP" or "TOTP".
 *
 * `supertokens-translations.test.ts` walks every English table of the SDK with these laid over it and
 * fails on a visible "TOTP", "OTP", "Logout", "Log out" or "Sign Out", so a string a new SDK version adds
 * is caught there. Keys that several recipes share (LOGOUT: the session's access-denied screen and the
 * OAuth2 provider's sign-out screen) get one value for all of them, as the SDK merges them into one store.
 */

export const FACTOR_NAMES = {
  totp: 'Authenticator app',
  'otp-email': 'Code by email',
  'otp-phone': 'Code by text message',
  webauthn: 'Passkey',
} as const;

export const SIGN_OUT = 'Sign out';

const en = {
  // Factor chooser (/auth/mfa).
  MULTI_FACTOR_CHOOSER_HEADER_TITLE: 'Choose your second step',
  MULTI_FACTOR_AUTH_LOGOUT: SIGN_OUT,
  TOTP_MFA_NAME: FACTOR_NAMES.totp,
  TOTP_MFA_DESCRIPTION: 'Enter the code your authenticator app shows.',
  PWLESS_MFA_OTP_EMAIL_NAME: FACTOR_NAMES['otp-email'],
  PWLESS_MFA_OTP_EMAIL_DESCRIPTION: 'We send a code to your email address.',
  PWLESS_MFA_OTP_PHONE_NAME: FACTOR_NAMES['otp-phone'],
  PWLESS_MFA_OTP_PHONE_DESCRIPTION: 'We send a code to your phone.',
  WEBAUTHN_MFA_NAME: FACTOR_NAMES.webauthn,
  WEBAUTHN_MFA_DESCRIPTION: 'Use a passkey saved on this device or your phone.',
  MFA_NO_AVAILABLE_OPTIONS: 'You have no second step set up.',
  MFA_NO_AVAILABLE_OPTIONS_LOGIN:
    'You have no second step you can use here, so sign-in cannot finish. Please contact support.',

  // Passwordless: the emailed (or texted) code, as first factor and as second.
  GENERAL_ERROR_OTP_UNDEFINED: 'Please enter the code.',
  GENERAL_ERROR_OTP_INVALID: 'That code is not right. Please check it and try again.',
  GENERAL_ERROR_OTP_EXPIRED: 'That code has expired. Please ask for a new one.',
  GENERAL_ERROR_OTP_NON_STRING: 'Please enter the code.',
  GENERAL_ERROR_OTP_EMPTY: 'Please enter the code.',
  PWLESS_USER_INPUT_CODE_HEADER_TITLE: 'Enter your code',
  PWLESS_USER_INPUT_CODE_HEADER_SUBTITLE: 'We sent a code to',
  PWLESS_USER_INPUT_CODE_HEADER_SUBTITLE_LINK: 'We sent a code and a sign-in link to',
  PWLESS_USER_INPUT_CODE_INPUT_LABEL: 'Code',
  PWLESS_MFA_HEADER_TITLE_EMAIL: FACTOR_NAMES['otp-email'],
  PWLESS_MFA_HEADER_TITLE_PHONE: FACTOR_NAMES['otp-phone'],
  PWLESS_MFA_FOOTER_LOGOUT: SIGN_OUT,
  PWLESS_RESEND_SUCCESS_PHONE: 'Text message sent again',
  PWLESS_RESEND_BTN_PHONE: 'Send the text again',

  // Authenticator app (/auth/mfa/totp).
  TOTP_CODE_VERIFICATION_HEADER_TITLE: FACTOR_NAMES.totp,
  TOTP_CODE_VERIFICATION_HEADER_SUBTITLE:
    'Open your authenticator app and enter the code it shows for Lumina.',
  TOTP_DEVICE_SETUP_HEADER_TITLE: 'Set up an authenticator app',
  TOTP_DEVICE_SETUP_HEADER_SUBTITLE:
    'Scan this QR code with an app such as Google Authenticator or 1Password, then enter the code it shows.',
  TOTP_CODE_INPUT_LABEL: 'Code from the app',
  TOTP_MFA_LOGOUT: SIGN_OUT,
  ERROR_TOTP_INVALID_CODE: 'That code is not right. Please try again.',
  GENERAL_ERROR_TOTP_NON_STRING: 'Please enter the code from your authenticator app.',
  GENERAL_ERROR_TOTP_EMPTY: 'Please enter the code from your authenticator app.',
  GENERAL_ERROR_TOTP_UNDEFINED: 'Please enter the code from your authenticator app.',

  // Passkey as second factor.
  WEBAUTHN_MFA_SIGN_IN_HEADER_TITLE: 'Use your passkey',
  WEBAUTHN_MFA_FOOTER_LOGOUT: SIGN_OUT,

  // Email verification (/auth/verify-email): the SDK puts an arrow after this word.
  EMAIL_VERIFICATION_LOGOUT: `${SIGN_OUT} `,

  // Access denied (session) and the OAuth2 provider's sign-out screen share this key.
  LOGOUT: SIGN_OUT,
  LOGOUT_CONFIRMATION: 'Do you want to sign out?',
} satisfies Record<string, string>;

/** `languageTranslations.translations` for SuperTokens.init. */
export const SDK_TRANSLATIONS: Record<string, Record<string, string>> = { en };
