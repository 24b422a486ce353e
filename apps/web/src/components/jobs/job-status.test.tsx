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

describe('JobStatus live preview', () => {
  afterEach(cleanup);

  it('shows the provider’s live preview while the job runs', () => {
    const url = '/api/jobs/0f1e2d3c-4b5a-4697-8877-665544332211/preview?v=1';
    renderWithApp(
      <JobStatus job={fakeJob({ status: 'running', percent: 40, preview_url: url })} look="card" />,
      {
        i18n,
      },
    );
    const img = screen.getByTestId('job-preview') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(url);
    expect(img.getAttribute('alt')).toBe('Live preview of the image being made');
  });

  it('shows no preview once the job has ended or when there is none', () => {
    renderWithApp(<JobStatus job={fakeJob({ status: 'running', preview_url: null })} look="panel" />, {
      i18n,
    });
    expect(screen.queryByTestId('run-preview')).toBeNull();
    cleanup();
    const ended = fakeJob({ status: 'succeeded', preview_url: '/api/jobs/x/preview?v=1' });
    renderWithApp(<JobStatus job={ended} look="card" />, { i18n });
    expect(screen.queryByTestId('job-preview')).toBeNull();
  });
});

describe('JobStatus failover line', () => {
  afterEach(cleanup);

  it('says in one small line why a job moved to another vendor, and nothing when it did not', () => {
    const moved = 'fal.ai did not answer in time, so Replicate made this image.';
    renderWithApp(
      <JobStatus job={fakeJob({ status: 'succeeded', made_by: 'Replicate', moved })} look="card" />,
      { i18n },
    );
    expect(screen.getByTestId('job-moved').textContent).toBe(moved);
    cleanup();

    renderWithApp(<JobStatus job={fakeJob({ status: 'succeeded', made_by: 'fal.ai' })} look="card" />, {
      i18n,
    });
    expect(screen.queryByTestId('job-moved')).toBeNull();
  });
});
