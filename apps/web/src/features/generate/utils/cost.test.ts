import { describe, expect, it } from 'vitest';
import { creditsFor } from '@lumina/contracts';
import { totalCost } from './cost';

describe('the price the Generate form shows', () => {
  it("is the contracts' price function's answer (what the server charges) for every image count", () => {
    for (const creditCost of [1, 2, 5])
      for (const numImages of [1, 2, 3, 4])
        expect(totalCost({ credit_cost: creditCost }, numImages)).toBe(
          creditsFor({ capability: 'text-to-image', creditCost, numImages }),
        );
    expect(totalCost(undefined, 2)).toBe(0);
  });
});
