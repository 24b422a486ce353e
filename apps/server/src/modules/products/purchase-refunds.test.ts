import { describe, expect, it } from 'vitest';
import { formatMoney } from './purchase-refunds.ts';

describe('formatMoney: an amount in the currency’s own minor units', () => {
  it('shows cents for a two-decimal currency', () => {
    expect(formatMoney(2900, 'usd')).toBe('$29.00');
    expect(formatMoney(1999, 'EUR')).toBe('€19.99');
  });

  it('shows a zero-decimal currency as it is, not 100× too small', () => {
    expect(formatMoney(2900, 'jpy')).toBe('¥2,900');
  });

  it('shows a three-decimal currency in thousandths', () => {
    expect(formatMoney(12345, 'kwd')).toMatch(/^KWD\s12\.345$/);
  });
});
