import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { problemsOf } from '../../config.test-helpers.ts';
import { shootImages, type PhotoShootProduct } from './product-catalogue.ts';

const shoot = (over: Record<string, unknown> = {}) => ({
  id: 'tiny',
  kind: 'photo_shoot',
  name: 'Tiny shoot',
  priceCredits: 10,
  shoot: { prompts: [{ prompt: 'portrait of {trigger}', count: 2 }] },
  ...over,
});

describe('the product list (PRODUCTS_JSON / PRODUCTS_FILE)', () => {
  it('is the built-in shoots then the credit packages when unset; the first is the onboarding product', () => {
    const { products, payments } = loadConfig({});
    expect(products.map((p) => p.id)).toEqual([
      'headshots',
      'artistic-portraits',
      'starter',
      'creator',
      'studio',
    ]);
    expect(shootImages(products[0] as PhotoShootProduct)).toBe(40);
    // The credit packages on the credits page are the products of kind "credits".
    expect(payments.packages.map((p) => [p.id, p.credits, p.priceCents])).toEqual([
      ['starter', 100, 500],
      ['creator', 500, 2000],
      ['studio', 1500, 5000],
    ]);
  });

  it('keeps CREDIT_PACKAGES_JSON working: its packages become the credit products', () => {
    const { products, payments } = loadConfig({
      CREDIT_PACKAGES_JSON: '[{"id":"mega","name":"Mega","credits":9000,"priceCents":9900}]',
    });
    expect(products.map((p) => p.id)).toEqual(['headshots', 'artistic-portraits', 'mega']);
    expect(payments.packages).toEqual([
      { id: 'mega', name: 'Mega', credits: 9000, priceCents: 9900, currency: 'usd' },
    ]);
  });

  it('takes the operator’s list whole, credit packages included, from JSON or a file', () => {
    const list = [shoot(), { id: 'pack', kind: 'credits', name: 'Pack', price: { cents: 700 }, credits: 70 }];
    const fromJson = loadConfig({ PRODUCTS_JSON: JSON.stringify(list) });
    expect(fromJson.products.map((p) => p.id)).toEqual(['tiny', 'pack']);
    expect(fromJson.payments.packages.map((p) => p.id)).toEqual(['pack']);
    const dir = mkdtempSync(join(tmpdir(), 'lumina-products-'));
    const file = join(dir, 'products.json');
    writeFileSync(file, JSON.stringify(list));
    expect(loadConfig({ PRODUCTS_FILE: file }).products).toEqual(fromJson.products);
  });

  it('stops start-up on a bad list, naming the setting and what is wrong', () => {
    expect(problemsOf({ PRODUCTS_JSON: '[{"id":"x"' })).toEqual([
      expect.stringMatching(/^PRODUCTS_JSON: is not valid JSON/),
    ]);
    expect(problemsOf({ PRODUCTS_JSON: JSON.stringify([shoot({ priceCredits: undefined })]) })).toEqual([
      expect.stringMatching(/^PRODUCTS_JSON: .*needs a price/),
    ]);
    expect(problemsOf({ PRODUCTS_JSON: JSON.stringify([shoot(), shoot()]) })).toEqual([
      expect.stringMatching(/^PRODUCTS_JSON: .*unique/),
    ]);
    expect(
      problemsOf({
        PRODUCTS_JSON: JSON.stringify([
          shoot({ shoot: { prompts: [{ prompt: 'a {trigger}', count: 101 }] } }),
        ]),
      }),
    ).toEqual([expect.stringMatching(/^PRODUCTS_JSON: .*shoot\.prompts\.0\.count/)]);
    expect(problemsOf({ PRODUCTS_FILE: '/nonexistent/products.json' })).toEqual([
      expect.stringMatching(/^PRODUCTS_FILE: cannot read \/nonexistent\/products\.json: ENOENT/),
    ]);
    expect(problemsOf({ PRODUCTS_JSON: '[]', PRODUCTS_FILE: '/x.json' })[0]).toMatch(/not both/);
  });

  it('refuses CREDIT_PACKAGES_JSON beside a product list: packages are listed there', () => {
    expect(
      problemsOf({
        PRODUCTS_JSON: JSON.stringify([shoot()]),
        CREDIT_PACKAGES_JSON: '[{"id":"mega","name":"Mega","credits":9000,"priceCents":9900}]',
      }),
    ).toEqual([expect.stringMatching(/^CREDIT_PACKAGES_JSON: cannot be used with PRODUCTS_JSON/)]);
  });
});
