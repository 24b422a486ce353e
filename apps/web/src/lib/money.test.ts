import { describe, expect, it } from 'vitest';
import { badgeKey, formatCreditDelta, formatCreditsPerUnit, formatPrice, toMajorUnits } from './money';

describe('money formatting', () => {
  it('formats minor units in the package currency', () => {
    expect(formatPrice(999, 'usd', 'en')).toBe('$9.99');
    expect(formatPrice(500000, 'usd', 'en')).toBe('$5,000.00');
    expect(formatPrice(1999, 'eur', 'en')).toBe('€19.99');
    expect(formatPrice(1999, 'EUR', 'de')).toBe('19,99\u00a0€');
    expect(formatPrice(0, 'gbp', 'en')).toBe('£0.00');
  });

  it('treats zero-decimal currencies as whole units', () => {
    expect(toMajorUnits(1200, 'jpy')).toBe(1200);
    expect(formatPrice(1200, 'jpy', 'en')).toBe('¥1,200');
    expect(toMajorUnits(1200, 'usd')).toBe(12);
  });

  it('shows credits per unit with at most one decimal, and signed ledger amounts', () => {
    expect(formatCreditsPerUnit(100, 'en')).toBe('100');
    expect(formatCreditsPerUnit(111.1111, 'en')).toBe('111.1');
    expect(formatCreditDelta(500, 'en')).toBe('+500');
    expect(formatCreditDelta(-3, 'en')).toBe('-3');
    expect(formatCreditDelta(0, 'en')).toBe('0');
  });

  it('turns a free-text badge into a translation key', () => {
    expect(badgeKey('best value')).toBe('best_value');
    expect(badgeKey(' Best Value! ')).toBe('best_value');
    expect(badgeKey('popular')).toBe('popular');
  });
});
