import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_COOKIE } from '@lumina/contracts';
import { setupLocalServer } from '@/testing/api-server';
import commonEn from '../../public/locales/en/common.json';
import { createI18n } from './i18n';

const server = setupLocalServer();

/** Records what is written to document.cookie (jsdom only reads back name=value). */
function recordCookieWrites() {
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  if (!descriptor?.set) throw new Error('document.cookie has no setter');
  const writes: string[] = [];
  const spy = vi.spyOn(Document.prototype, 'cookie', 'set').mockImplementation(function (this: Document, v) {
    writes.push(v);
    descriptor.set?.call(this, v);
  });
  return { writes, restore: () => spy.mockRestore() };
}

function clearCookies() {
  document.cookie = `${LANGUAGE_COOKIE}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

describe('i18n', () => {
  beforeEach(clearCookies);

  it('loads the common namespace over HTTP from /locales/{{lng}}/{{ns}}.json', async () => {
    const i18n = await createI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
    expect(i18n.language).toBe('en');
    expect(i18n.t('pages.home.title')).toBe(commonEn.pages.home.title);
    expect(server.requests.some((r) => r.url === '/locales/en/common.json')).toBe(true);
  });

  it('writes the language cookie as sCurrLanguage=en; path=/; samesite=lax', async () => {
    const cookies = recordCookieWrites();
    try {
      await createI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
    } finally {
      cookies.restore();
    }
    const written = cookies.writes.filter((c) => c.startsWith(`${LANGUAGE_COOKIE}=`));
    expect(written.map((c) => c.toLowerCase())).toEqual(['scurrlanguage=en; path=/; samesite=lax']);
    expect(document.cookie).toContain('sCurrLanguage=en');
  });

  it('falls back to en for an unsupported language in the cookie', async () => {
    document.cookie = `${LANGUAGE_COOKIE}=fr; path=/`;
    const i18n = await createI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
    expect(i18n.resolvedLanguage).toBe('en');
    expect(i18n.t('nav.generate')).toBe(commonEn.nav.generate);
  });
});
