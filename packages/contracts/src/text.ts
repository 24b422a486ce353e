import { z } from 'zod';

/**
 * The one rule every text field of every contract follows: no NUL or other C0 control characters (tab,
 * line feed and carriage return are allowed in multi-line fields), no DEL, and no lone UTF-16
 * surrogates. PostgreSQL refuses NUL in text and the database drivers fail on text that is not valid
 * UTF-8, so such input used to reach the database and come back as a 500; refused here, it is a 400
 * that names the field. `contracts.test.ts` walks every contract and fails if a string field lacks it.
 */

// With the `u` flag, \p{Cs} matches only surrogates that are not part of a pair.
// eslint-disable-next-line no-control-regex
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f]|\p{Cs}/u;
// eslint-disable-next-line no-control-regex
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\p{Cs}/u;

export const TEXT_NOT_ALLOWED = 'contains a character that is not allowed';

/** True when `value` has none of the characters the text rule refuses. */
export function isAllowedText(value: string, options: { multiline?: boolean } = {}): boolean {
  return !(options.multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(value);
}

/** The checks themselves, kept as values so the contract walker can tell a field carries one. */
export const SINGLE_LINE_TEXT = z.refine<string>((v) => isAllowedText(v), { message: TEXT_NOT_ALLOWED });
export const MULTI_LINE_TEXT = z.refine<string>((v) => isAllowedText(v, { multiline: true }), {
  message: TEXT_NOT_ALLOWED,
});

/**
 * A text field. `multiline` admits tab, line feed and carriage return (prompts, comments); everything
 * else is a single line. Chain `.trim()`, `.min()`, `.max()` and friends as on `z.string()`.
 */
export function text(options: { multiline?: boolean; error?: string } = {}) {
  const base = options.error ? z.string({ error: options.error }) : z.string();
  return base.check(options.multiline ? MULTI_LINE_TEXT : SINGLE_LINE_TEXT);
}

/** An http(s) address: a URL that also follows the text rule (URL parsing keeps NUL in the string). */
export function safeUrl(message?: string) {
  return z.url(message).check(SINGLE_LINE_TEXT);
}

/** A page cursor: opaque to clients, base64url as the server writes it; the server decodes and checks it. */
export const PageCursor = text()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'This page cursor is not valid; start again from the first page.');

/**
 * A whole number read strictly: a JSON number, or (query strings and form fields are text) a string of
 * decimal digits. "0x10", "1e3", " 12", "12abc", "-0" and "" are refused, not read as some number.
 */
export function wholeNumber(message: string) {
  return z.union(
    [
      z.number(message),
      text()
        .regex(/^(0|[1-9]\d{0,15})$/, message)
        .transform(Number),
    ],
    { error: message },
  );
}

/** A decimal number read strictly, as in `wholeNumber` but with an optional fraction ("0.6", "1"). */
export function decimalNumber(message: string) {
  return z.union(
    [
      z.number(message),
      text()
        .regex(/^\d{1,6}(\.\d{1,12})?$/, message)
        .transform(Number),
    ],
    { error: message },
  );
}

/** A page size in a query string: strictly decimal, 1–`max`, `fallback` when absent. */
export function pageLimit(max: number, fallback: number) {
  return wholeNumber('limit must be a whole number')
    .pipe(z.int().min(1, 'limit must be at least 1').max(max, `limit must be at most ${max}`))
    .default(fallback);
}

/**
 * A date and time as input: ISO 8601 with a zone (`Z` or `±hh:mm`), seconds and an optional fraction,
 * e.g. 2027-01-31T12:00:00Z. Zod's own format check refuses what is not on the calendar (2027-02-30,
 * 2027-13-01, 2027-02-29, 24:00, 23:59:60) instead of letting `new Date` roll it into another day.
 * Every contract taking a date uses this one schema.
 */
export function dateTimeInput(
  message = 'This is not a date and time (ISO 8601), e.g. 2027-01-31T12:00:00Z.',
) {
  return z.iso.datetime({ offset: true, error: message }).check(SINGLE_LINE_TEXT);
}
