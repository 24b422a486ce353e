import { readFileSync } from 'node:fs';
import type commonEn from '../../apps/web/public/locales/en/common.json';

/** The web app's English strings, typed by the translation file itself (read at run time, as the app does). */
export const en = JSON.parse(
  readFileSync('apps/web/public/locales/en/common.json', 'utf8'),
) as typeof commonEn;

/** What the SDK's prebuilt screens say in our words (the app lays these over the SDK's own strings). */
export { FACTOR_NAMES, SDK_TRANSLATIONS, SIGN_OUT } from '../../apps/web/src/lib/supertokens-translations';
