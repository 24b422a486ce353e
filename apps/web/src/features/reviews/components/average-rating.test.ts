import { describe, expect, it } from 'vitest';
import { overallAverage } from './average-rating';

describe('average review', () => {
  it('weights each product by its number of reviews, and is null without any', () => {
    expect(overallAverage([])).toBeNull();
    expect(
      overallAverage([
        { average: 5, count: 3 },
        { average: 3, count: 1 },
      ]),
    ).toEqual({ average: 4.5, count: 4 });
  });
});
