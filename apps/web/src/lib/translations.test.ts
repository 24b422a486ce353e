import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import commonEn from '../../public/locales/en/common.json';

const SRC = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function lookup(key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], commonEn);
}

describe('translation file', () => {
  it('has a string for every literal key the code passes to t()', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([\w.]+)'/g)) {
        const key = match[1] as string;
        // i18next plurals: `key_one` / `key_other` stand for `key` when a count is passed.
        const plural = typeof lookup(`${key}_one`) === 'string' && typeof lookup(`${key}_other`) === 'string';
        if (typeof lookup(key) !== 'string' && !plural) missing.push(`${file.slice(SRC.length + 1)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has a readable message for every error code the API client can produce', async () => {
    const { ErrorCode } = await import('@lumina/contracts');
    for (const code of [...ErrorCode.options, 'NETWORK_ERROR', 'INVALID_RESPONSE']) {
      expect(typeof lookup(`errors.codes.${code}`), code).toBe('string');
    }
  });
});
