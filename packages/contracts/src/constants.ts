/** Business constants from the spec (docs/spec/SPEC.md §9), shared by server and web. */
export const CREDIT_BALANCE_POLL_MS = 30_000;
export const REFERRAL_TRACKING_DELAY_MS = 1_000;
export const QUERY_STALE_CACHE_MS = 5 * 60_000;
export const QUERY_RETRIES = 3;
export const QUERY_RETRY_DELAY_CAP_MS = 30_000;
export const LANGUAGE_COOKIE = 'sCurrLanguage';
export const DEFAULT_LANGUAGE = 'en';
export const THEME_STORAGE_KEY = 'theme-storage';
