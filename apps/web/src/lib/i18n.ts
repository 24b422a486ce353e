import i18next, { type i18n as I18n } from 'i18next';
import HttpBackend, { type HttpBackendOptions } from 'i18next-http-backend';
import LanguageDetector, { type DetectorOptions } from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE } from '@lumina/contracts';

export const SUPPORTED_LANGUAGES = [DEFAULT_LANGUAGE] as const;
export const DEFAULT_NAMESPACE = 'common';
export const LOCALES_LOAD_PATH = '/locales/{{lng}}/{{ns}}.json';

/** Language is kept in the `sCurrLanguage` cookie: path /, SameSite Lax, for the browser session. */
export function detectionOptions(): DetectorOptions {
  return {
    order: ['cookie', 'navigator'],
    lookupCookie: LANGUAGE_COOKIE,
    caches: ['cookie'],
    cookieOptions: { path: '/', sameSite: 'lax' },
    // Translations exist per language, not per region: en-US and en-GB both read and store `en`.
    convertDetectedLanguage: (lng) => lng.split('-')[0] ?? lng,
  };
}

export interface I18nOptions {
  /** Where translation files are fetched from; defaults to `/locales/{{lng}}/{{ns}}.json`. */
  loadPath?: string;
}

/** Builds and initialises an i18next instance; resolves once the `common` namespace is loaded. */
export async function createI18n(options: I18nOptions = {}): Promise<I18n> {
  const instance = i18next.createInstance();
  await configureI18n(instance, options);
  return instance;
}

/** Initialises `instance` as the app does (tests create it first so they can hand it out before it loads). */
export function configureI18n(instance: I18n, options: I18nOptions) {
  return instance
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    .init<HttpBackendOptions>({
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...SUPPORTED_LANGUAGES],
      load: 'languageOnly',
      ns: [DEFAULT_NAMESPACE],
      defaultNS: DEFAULT_NAMESPACE,
      interpolation: { escapeValue: false },
      backend: { loadPath: options.loadPath ?? LOCALES_LOAD_PATH },
      detection: detectionOptions(),
      react: { useSuspense: true },
    });
}

/** The app's instance, initialised once by `initI18n` at boot. */
export const i18n: I18n = i18next.createInstance();

let ready: Promise<unknown> | undefined;
export function initI18n(options: I18nOptions = {}): Promise<unknown> {
  ready ??= configureI18n(i18n, options);
  return ready;
}
