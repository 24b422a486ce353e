import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import type { ServerResponse } from 'node:http';
import { contracts, type JobView } from '@lumina/contracts';
import { fakeJob, fakeModel, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError, progressEvent } from '@/testing/fake-api';
import commonEn from '../../../../public/locales/en/common.json';
import { forgetJobImage } from '../api/get-progress';
import { progressQueryKey } from '@/lib/jobs/job-cache';
import { GenerateStudio } from './generate-studio';

const { server, i18n } = setupApiServer();
const open: ServerResponse[] = [];

beforeAll(async () => {
  server.on(contracts.models, () => answer(contracts.models, { models: [fakeModel()] }));
});
afterEach(() => {
  cleanup();
  for (const res of open.splice(0)) res.destroy();
});

const snapshot = (jobs: JobView[]) => progressEvent({ jobs });
const progressRequests = () => server.requests.filter((r) => r.url === '/api/progress').length;

describe('live progress', () => {
  it('writes each stream snapshot into the progress cache and moves the progress bar live', async () => {
    let stream: ServerResponse | undefined;
    server.answer(contracts.progress, { jobs: [] });
    server.on(contracts.progressStream, (_req, res) => {
      open.push(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(snapshot([]));
      stream = res;
    });
    const { queryClient } = renderWithApp(
      <GenerateStudio balance={10} streamOptions={{ getToken: () => 'tok-live' }} />,
      { i18n },
    );
    await waitFor(() => expect(screen.getByTestId('stream-state').dataset.state).toBe('live'));
    expect(screen.getByTestId('stream-state').textContent).toBe(commonEn.generate.stream.live);

    const job = fakeJob({ status: 'queued', queue_position: 3 });
    stream?.write(snapshot([job]));
    const card = await screen.findByTestId('job-card');
    expect(within(card).getByTestId('job-detail').textContent).toBe('#3 in the queue');
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');

    stream?.write(
      snapshot([{ ...job, status: 'running', queue_position: null, percent: 35, message: 'step 7/20' }]),
    );
    await waitFor(() =>
      expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('35'),
    );
    expect(within(card).getByTestId('job-detail').textContent).toBe('step 7/20');

    const done = {
      ...job,
      status: 'succeeded' as const,
      queue_position: null,
      percent: 100,
      image_ids: ['30000000-0000-4000-8000-000000000001'],
    };
    stream?.write(snapshot([done]));
    await waitFor(() =>
      expect(within(card).getByTestId('job-status').textContent).toBe(commonEn.generate.status.succeeded),
    );
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(queryClient.getQueryData(progressQueryKey)).toEqual({ jobs: [done] });
    expect(server.requests.find((r) => r.url === '/api/progress/stream')?.headers.authorization).toBe(
      'Bearer tok-live',
    );
    // The stream fed everything: no polling happened beyond the first load.
    expect(progressRequests()).toBeLessThanOrEqual(1);
  });

  it('falls back to polling every 2 s while the stream is down, and stops once no job is active', async () => {
    server.on(contracts.progressStream, () => answerError(503, 'SERVICE_UNAVAILABLE', 'down'));
    const job = fakeJob({ status: 'running', queue_position: null, percent: 10 });
    let polls = 0;
    server.on(contracts.progress, () => {
      polls += 1;
      const jobs =
        polls >= 3
          ? [
              {
                ...job,
                status: 'failed' as const,
                percent: null,
                error: 'The provider timed out',
                refunded: true,
              },
            ]
          : [{ ...job, percent: 10 + polls * 30 }];
      return answer(contracts.progress, { jobs });
    });
    let refunds = 0;
    renderWithApp(
      <GenerateStudio
        balance={10}
        onCreditsChanged={(b) => b === undefined && (refunds += 1)}
        streamOptions={{ getToken: () => null, reconnectDelayMs: 60_000 }}
      />,
      { i18n },
    );
    await waitFor(() => expect(screen.getByTestId('stream-state').dataset.state).toBe('fallback'));
    expect(screen.getByTestId('stream-state').textContent).toBe(commonEn.generate.stream.fallback);
    const card = await screen.findByTestId('job-card');
    await waitFor(() => expect(within(card).getByTestId('job-status').textContent).toBe('Failed'), {
      timeout: 9_000,
    });
    expect(within(card).getByRole('alert').textContent).toContain('The provider timed out');
    expect(within(card).getByTestId('job-refunded').textContent).toBe('1 credit refunded');
    expect(refunds).toBe(1);
    const settled = polls;
    await new Promise((r) => setTimeout(r, 2_500));
    expect(polls).toBe(settled);
  }, 20_000);

  it('drops a finished job from the list once every image it made was deleted: no empty card', async () => {
    server.on(contracts.progressStream, () => answerError(503, 'SERVICE_UNAVAILABLE', 'down'));
    const ids = ['30000000-0000-4000-8000-00000000000a', '30000000-0000-4000-8000-00000000000b'];
    const job = fakeJob({
      status: 'succeeded',
      queue_position: null,
      percent: 100,
      num_images: 2,
      image_ids: ids,
    });
    server.answer(contracts.progress, { jobs: [job] });
    const { queryClient } = renderWithApp(
      <GenerateStudio balance={10} streamOptions={{ getToken: () => null, reconnectDelayMs: 60_000 }} />,
      { i18n },
    );
    await screen.findByTestId('job-card');
    forgetJobImage(queryClient, ids[0]!);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getAllByTestId('job-card')).toHaveLength(1);
    forgetJobImage(queryClient, ids[1]!);
    await waitFor(() => expect(screen.queryByTestId('job-card')).toBeNull());
  });

  it('shows customers only the models they can use, and the operator a dismissable set-up note', async () => {
    server.answer(contracts.progress, { jobs: [] });
    server.on(contracts.models, () =>
      answer(contracts.models, {
        models: [
          fakeModel(),
          fakeModel({
            id: 'fal-flux',
            display_name: 'FLUX (fal.ai)',
            provider: 'fal',
            available: false,
            unavailable_reason: 'This server has no fal.ai key configured.',
          }),
        ],
      }),
    );
    window.localStorage.clear();
    const customer = renderWithApp(<GenerateStudio balance={10} />, { i18n });
    await screen.findByTestId('generate-form');
    expect(screen.queryByText('FLUX (fal.ai)')).toBeNull();
    expect(screen.queryByText(/key configured/)).toBeNull();
    expect(screen.queryByTestId('operator-setup-hint')).toBeNull();
    customer.unmount();

    const operator = renderWithApp(<GenerateStudio balance={10} isOperator />, { i18n });
    const hint = await screen.findByTestId('operator-setup-hint');
    expect(hint.textContent).toContain('1 model is hidden');
    expect(within(hint).getByRole('link').getAttribute('href')).toBe('/README.md#ai-providers');
    expect(screen.queryByText('FLUX (fal.ai)')).toBeNull();
    within(hint).getByTestId('operator-setup-hint-dismiss').click();
    await waitFor(() => expect(screen.queryByTestId('operator-setup-hint')).toBeNull());
    operator.unmount();
    // Remembered: it does not come back.
    renderWithApp(<GenerateStudio balance={10} isOperator />, { i18n });
    await screen.findByTestId('generate-form');
    expect(screen.queryByTestId('operator-setup-hint')).toBeNull();
    server.on(contracts.models, () => answer(contracts.models, { models: [fakeModel()] }));
  });
});
