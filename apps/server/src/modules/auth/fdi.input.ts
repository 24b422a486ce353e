import { FdiBadRequest } from './fdi.http.ts';

/** The longest string any FDI field carries (Apple's id_token and `user` JSON are a few KB at most). */
export const FDI_MAX_STRING_LENGTH = 8192;
const MAX_DEPTH = 8;
// In a `u` regex a well-formed surrogate pair is one code point, so this matches only lone halves.
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * The one input rule of every `/auth` route, run before any handler: no string in the body, query or
 * path may hold a NUL character or a lone UTF-16 surrogate, or be longer than FDI_MAX_STRING_LENGTH,
 * and bodies nest at most MAX_DEPTH levels. PostgreSQL refuses NUL in text and lone surrogates cannot
 * be encoded as UTF-8, so letting them through turned bad input into 500s deep in a query; here they
 * are a 400 `{message}` naming the field. Per-route zod schemas still check types and each field's
 * own limits.
 */
export function assertCleanFdiInput(where: string, value: unknown, maxLength = FDI_MAX_STRING_LENGTH): void {
  visit(value, where, 0, maxLength);
}

/**
 * Why PostgreSQL cannot store `value` as text, if it cannot: it refuses NUL, and a lone surrogate has
 * no UTF-8 encoding. For text that reaches the database by another way than a request field (what a
 * signed SAML assertion says).
 */
export function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(value)) return 'is not valid Unicode text';
  return undefined;
}

function visit(value: unknown, path: string, depth: number, maxLength: number): void {
  if (typeof value === 'string') {
    const unstorable = unstorableText(value);
    if (unstorable) throw new FdiBadRequest(`${path}: ${unstorable}`);
    if (value.length > maxLength) {
      throw new FdiBadRequest(`${path}: is too long (at most ${maxLength} characters)`);
    }
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_DEPTH) throw new FdiBadRequest(`${path}: is nested too deeply`);
  for (const [key, inner] of Object.entries(value)) {
    // Keys are input too (they end up in logs and, for query-param maps, in redirect URLs).
    visit(key, `${path}: a field name`, depth + 1, FDI_MAX_STRING_LENGTH);
    visit(inner, `${path}.${key}`, depth + 1, maxLength);
  }
}
