/** Currencies whose minor unit is not 1/100 of the major unit (ISO 4217 exponent 0). */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** Minor units (cents) to major units, honouring zero-decimal currencies such as JPY. */
export function toMajorUnits(minor: number, currency: string): number {
  return ZERO_DECIMAL.has(currency.toLowerCase()) ? minor : minor / 100;
}

/** A price in minor units, formatted in its own currency for the reader's language (e.g. 999 usd → "$9.99"). */
export function formatPrice(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(
    toMajorUnits(minor, currency),
  );
}

/** "Credits per dollar" and the like, with at most one decimal. */
export function formatCreditsPerUnit(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
}

/** A signed credit amount: "+500", "−3". */
export function formatCreditDelta(amount: number, locale: string): string {
  return new Intl.NumberFormat(locale, { signDisplay: 'exceptZero' }).format(amount);
}

/** The translation key for a badge the server sends as free text ("best value" → "best_value"). */
export function badgeKey(badge: string): string {
  return badge
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}
