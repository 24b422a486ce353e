import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  contracts,
  deleteTrainedModelContract,
  renameTrainedModelContract,
  trainedModelsContract,
  type JobView,
  type TrainedModelView,
} from '@lumina/contracts';
import { fakeImage, fakeJob, fakeTrainedModel, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../../../public/locales/en/common.json';
import { ModelsView } from './models-view';

const { server, i18n } = setupApiServer();
const m = commonEn.training.models;

const READY_ID = '8d9e0f1a-2b3c-4d5e-8f60-718293a4b5c6';
const TRAINING_ID = '9e0f1a2b-3c4d-4e5f-9a60-718293a4b5c7';
const FAILED_ID = 'af0f1a2b-3c4d-4e5f-9a60-718293a4b5c8';
const JOB_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

const trained = (overrides: Partial<TrainedModelView>) =>
  fakeTrainedModel({
    id: READY_ID,
    cover_url: '/files/cover.webp',
    created_at: '2026-03-14T09:00:00.000Z',
    ...overrides,
  });

let models: TrainedModelView[] = [];
beforeEach(() => {
  models = [
    trained({}),
    trained({
      id: TRAINING_ID,
      name: 'Watercolour',
      trigger_word: 'wtrclr',
      subject: 'style',
      status: 'training',
      job_id: JOB_ID,
      cover_url: null,
      provider: 'fal',
    }),
    trained({
      id: FAILED_ID,
      name: 'Red mug',
      trigger_word: 'rdmug',
      subject: 'object',
      status: 'failed',
      error: 'The trainer stopped: it ran out of time.',
      cover_url: null,
    }),
  ];
  server.on(trainedModelsContract, () => answer(trainedModelsContract, { models }));
});
afterEach(() => cleanup());

function renderModels(jobs: JobView[] = []) {
  return renderWithApp(<ModelsView jobs={jobs} onRefund={() => undefined} />, { i18n });
}

const card = async (name: string) => (await screen.findByRole('article', { name })) as HTMLElement;

describe('your models', () => {
  it('lists each model with status, cover, trigger word and date; a ready one opens Generate with it picked', async () => {
    renderModels();
    const ready = await card('Anna portraits');
    expect(within(ready).getByTestId('model-status').textContent).toBe(m.status.ready);
    expect(within(ready).getByTestId('model-cover').getAttribute('src')).toBe('/files/cover.webp');
    expect(within(ready).getByTestId('model-trigger').textContent).toBe('ohwx_anna');
    expect(within(ready).getByText('Created Mar 14, 2026')).toBeTruthy();
    expect(within(ready).getByRole('link', { name: m.generate }).getAttribute('href')).toBe(
      `/generate?model=${READY_ID}`,
    );

    const failed = await card('Red mug');
    expect(within(failed).getByTestId('model-status').textContent).toBe(m.status.failed);
    expect(within(failed).getByTestId('model-error').textContent).toBe(
      'The trainer stopped: it ran out of time. Your credits were refunded.',
    );
    expect(within(failed).queryByRole('link', { name: m.generate })).toBeNull();
  });

  it('shows a training one with its live progress and Cancel', async () => {
    server.on(contracts.cancelJob, () =>
      answer(
        contracts.cancelJob,
        fakeJob({ id: JOB_ID, kind: 'train', status: 'cancelled', refunded: true }),
      ),
    );
    renderModels([
      fakeJob({ id: JOB_ID, kind: 'train', status: 'running', percent: 62, message: 'step 620/1000' }),
    ]);
    const training = await card('Watercolour');
    expect(within(training).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('62');
    expect(within(training).getByTestId('training-detail').textContent).toBe('step 620/1000');
    expect(within(training).queryByRole('link', { name: m.generate })).toBeNull();
    fireEvent.click(within(training).getByTestId('training-cancel'));
    await waitFor(() =>
      expect(server.requests.some((r) => r.method === 'DELETE' && r.url === `/api/jobs/${JOB_ID}`)).toBe(
        true,
      ),
    );
  });

  it('offers Cancel for a training the feed no longer lists, through the model’s job', async () => {
    renderModels([]);
    const training = await card('Watercolour');
    expect(within(training).getByTestId('training-status').textContent).toBe(
      commonEn.training.job.status.running,
    );
    expect(within(training).getByTestId('training-cancel')).toBeTruthy();
  });

  it('renames in place: Enter saves, Escape puts the name back, a refusal is shown', async () => {
    let sent: unknown;
    server.on(renameTrainedModelContract, (req) => {
      sent = JSON.parse(req.body);
      const renamed = trained({ name: (sent as { name: string }).name });
      models = [renamed, ...models.slice(1)];
      return answer(renameTrainedModelContract, renamed);
    });
    renderModels();
    let ready = await card('Anna portraits');
    fireEvent.click(within(ready).getByRole('button', { name: 'Rename Anna portraits' }));
    let input = within(ready).getByLabelText(m.nameField) as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    fireEvent.change(input, { target: { value: 'Never mind' } });
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(within(ready).getByTestId('model-name').textContent).toBe('Anna portraits');
    expect(server.requests.some((r) => r.method === 'PATCH')).toBe(false);

    fireEvent.click(within(ready).getByRole('button', { name: 'Rename Anna portraits' }));
    input = within(ready).getByLabelText(m.nameField) as HTMLInputElement;
    fireEvent.change(input, { target: { value: '  Anna, studio light ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    ready = await card('Anna, studio light');
    expect(sent).toEqual({ name: 'Anna, studio light' });
    expect(server.requests.find((r) => r.method === 'PATCH')?.url).toBe(`/api/my_models/${READY_ID}`);
    expect(within(ready).getByTestId('model-name').textContent).toBe('Anna, studio light');
  });

  it('shows why a rename was refused and keeps the field open', async () => {
    server.on(renameTrainedModelContract, () =>
      answerError(409, 'CONFLICT', 'You already have a model called “Red mug”.'),
    );
    renderModels();
    const ready = await card('Anna portraits');
    fireEvent.click(within(ready).getByRole('button', { name: 'Rename Anna portraits' }));
    const input = within(ready).getByLabelText(m.nameField);
    fireEvent.change(input, { target: { value: 'Red mug' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((await within(ready).findByTestId('model-rename-error')).textContent).toBe(
      'You already have a model called “Red mug”.',
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('deletes after a confirmation; keeping it sends nothing', async () => {
    server.on(deleteTrainedModelContract, (req) => {
      expect(req.params.id).toBe(READY_ID);
      models = models.slice(1);
      return answer(deleteTrainedModelContract, { deleted: true });
    });
    renderModels();
    const ready = await card('Anna portraits');
    fireEvent.click(within(ready).getByRole('button', { name: 'Delete Anna portraits' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete “Anna portraits”?' });
    expect(dialog.textContent).toContain(m.confirmBody);
    fireEvent.click(within(dialog).getByRole('button', { name: m.keep }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);

    fireEvent.click(within(ready).getByRole('button', { name: 'Delete Anna portraits' }));
    dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: m.confirmDelete }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Anna portraits' })).toBeNull());
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });

  it('shows a failed delete in the dialog', async () => {
    server.on(deleteTrainedModelContract, () => answerError(404, 'NOT_FOUND', 'No such model.'));
    renderModels();
    const ready = await card('Anna portraits');
    fireEvent.click(within(ready).getByRole('button', { name: 'Delete Anna portraits' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: m.confirmDelete }));
    expect((await screen.findByTestId('model-delete-error')).textContent).toBe('No such model.');
  });

  it('lists the images made with a model', async () => {
    const image = fakeImage({ model: READY_ID, prompt: 'ohwx_anna on a beach at dusk' });
    server.on(contracts.imagesByModel, (req) => {
      expect(req.params.id).toBe(READY_ID);
      return answer(contracts.imagesByModel, { items: [image], next_cursor: null });
    });
    renderModels();
    const ready = await card('Anna portraits');
    const toggle = within(ready).getByRole('button', { name: m.images });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const thumb = await within(ready).findByRole('img', { name: 'ohwx_anna on a beach at dusk' });
    expect(thumb.getAttribute('src')).toBe(image.thumbnail_url);
  });

  it('says what to do when there are none yet', async () => {
    models = [];
    renderModels();
    expect((await screen.findByTestId('models-empty')).textContent).toContain(m.emptyTitle);
    expect(screen.getByRole('link', { name: m.trainOne }).getAttribute('href')).toBe('/training');
  });

  it('shows a failure to load the list', async () => {
    server.on(trainedModelsContract, () => answerError(503, 'SERVICE_UNAVAILABLE', 'Try again in a minute.'));
    renderModels();
    expect((await screen.findByRole('alert')).textContent).toContain('Try again in a minute.');
  });
});
