import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { fakeJob, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { JobStatus } from './job-status';

const { i18n } = setupApiServer();

describe('JobStatus cancel', () => {
  afterEach(cleanup);

  it('offers Cancel for a running job of its own', () => {
    renderWithApp(<JobStatus job={fakeJob({ status: 'running' })} look="panel" />, { i18n });
    expect(screen.getByTestId('run-cancel')).toBeTruthy();
  });

  it("offers no Cancel for a photo shoot's stage (the server refuses it)", () => {
    const job = fakeJob({ status: 'running', purchase_id: '0f1e2d3c-4b5a-4697-8877-665544332211' });
    renderWithApp(<JobStatus job={job} look="panel" />, { i18n });
    expect(screen.getByTestId('run-status')).toBeTruthy();
    expect(screen.queryByTestId('run-cancel')).toBeNull();
  });
});
