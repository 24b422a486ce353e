import { readFileSync } from 'node:fs';
import type commonEn from '../../apps/web/public/locales/en/common.json';

/** The web app's English strings, typed by the translation file itself (read at run time, as the app does). */
export const en = JSON.parse(
  readFileSync('apps/web/public/locales/en/common.json', 'utf8'),
) as typeof commonEn;
