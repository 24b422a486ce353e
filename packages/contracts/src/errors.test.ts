import { describe, expect, it } from 'vitest';
import { errorCodeForStatus, errorStatus } from './errors.ts';

describe('errorCodeForStatus', () => {
  it('reads back the code every status is sent with', () => {
    for (const [code, status] of Object.entries(errorStatus)) expect(errorCodeForStatus(status)).toBe(code);
  });

  it('falls back to INTERNAL for server faults and VALIDATION_FAILED for other refusals', () => {
    expect(errorCodeForStatus(502)).toBe('INTERNAL');
    expect(errorCodeForStatus(418)).toBe('VALIDATION_FAILED');
  });
});
