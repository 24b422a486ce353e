import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  contracts,
  creditsFor,
  deleteTrainingPhotoContract,
  deleteTrainingSetContract,
  extendTrainingSetContract,
  listTrainingSetsContract,
  trainedModelsContract,
  trainModelContract,
  trainReplicateContract,
  uploadTrainingPhotosContract,
  type JobView,
  type TrainedModelView,
  type TrainingPhoto,
  type TrainingSetView,
} from '@lumina/contracts';
import { fakeJob, fakeModel, fakeTrainedModel, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { setupNodeFormData } from '@/testing/node-form-data';
import commonEn from '../../../../public/locales/en/common.json';
import { TrainingView } from './training-view';

const { server, i18n } = setupApiServer();
setupNodeFormData();

const tr = commonEn.training;
const SET_ID = '5b0c2a52-7a55-4d63-9f8e-1c2d3e4f5a6b';
const MODEL_ID = '8d9e0f1a-2b3c-4d5e-8f60-718293a4b5c6';
const JOB_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

const imageModel = fakeModel();
const localTrainer = fakeModel({
  id: 'local-trainer',
  display_name: 'Local style profile',
  capability: 'train',
  credit_cost: 30,
  training: { min_steps: 100, max_steps: 3000, default_steps: 1000, base_model: 'lumina-local' },
});
const falTrainer = fakeModel({
  id: 'fal-flux-lora',
  display_name: 'FLUX LoRA (fal)',
  provider: 'fal',
  capability: 'train',
  credit_cost: 45,
  training: { min_steps: 500, max_steps: 4000, default_steps: 1000, base_model: 'flux-dev' },
});
const replicateTrainer = fakeModel({
  id: 'replicate-flux-lora',
  display_name: 'FLUX LoRA (Replicate)',
  provider: 'replicate',
  capability: 'train',
  credit_cost: 50,
  training: { min_steps: 500, max_steps: 4000, default_steps: 1000, base_model: 'flux-dev-replicate' },
});
const models = [imageModel, localTrainer, falTrainer, replicateTrainer];

let photoCounter = 0;
function photo(filename: string, hints: string[] = []): TrainingPhoto {
  photoCounter += 1;
  const id = `00000000-0000-4000-9000-${String(photoCounter).padStart(12, '0')}`;
  return {
    id,
    filename,
    url: `/files/${id}.jpg`,
    thumbnail_url: `/files/${id}.webp`,
    width: 768,
    height: 1024,
    hints,
  };
}

const setOf = (photos: TrainingPhoto[]) => ({
  id: SET_ID,
  photos,
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
});

const trained = (overrides: Partial<TrainedModelView> = {}) =>
  fakeTrainedModel({
    id: MODEL_ID,
    status: 'training',
    image_count: 6,
    set_id: SET_ID,
    job_id: JOB_ID,
    created_at: '2026-01-01T12:05:00.000Z',
    ...overrides,
  });

/** A JPEG-looking file of `size` bytes (the browser checks only names, sizes and the loaded preview). */
const jpeg = (name: string, size = 2048, type = 'image/jpeg') =>
  new File([new Uint8Array(size).fill(7)], name, { type });

const previews = new Map<string, string>();
beforeAll(() => {
  // jsdom has no object URLs; the page only needs a distinct one per file for the previews.
  URL.createObjectURL = vi.fn((file: Blob) => {
    const url = `blob:preview-${previews.size}`;
    previews.set(url, (file as File).name);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});
let myModels: TrainedModelView[] = [];
/** The caller's stored sets, newest first (GET /api/training_sets). */
let storedSets: TrainingSetView[] = [];
beforeEach(() => {
  myModels = [];
  storedSets = [];
  server.on(trainedModelsContract, () => answer(trainedModelsContract, { models: myModels }));
  server.on(listTrainingSetsContract, () => answer(listTrainingSetsContract, { sets: storedSets }));
});
afterEach(() => cleanup());

function renderTraining(props: { balance?: number; jobs?: JobView[] } = {}) {
  const onCreditsChanged = vi.fn();
  const element = (jobs: JobView[] | undefined) => (
    <TrainingView
      models={models}
      balance={props.balance ?? 500}
      jobs={jobs}
      onCreditsChanged={onCreditsChanged}
    />
  );
  const view = renderWithApp(element(props.jobs ?? []), { i18n });
  return { ...view, onCreditsChanged, setJobs: (jobs: JobView[]) => view.rerender(element(jobs)) };
}

const pick = (files: File[]) => fireEvent.change(screen.getByTestId('training-files'), { target: { files } });
const uploadButton = () => screen.getByTestId('training-upload') as HTMLButtonElement;
const submit = () => screen.getByTestId('training-submit') as HTMLButtonElement;

/** Picks six photos and uploads them; the server keeps all six. */
async function uploadSix() {
  const kept = ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg', 'e.jpg', 'f.jpg'].map((n) => photo(n));
  server.on(uploadTrainingPhotosContract, () =>
    answer(uploadTrainingPhotosContract, { ...setOf(kept), refused: [] }, 201),
  );
  pick(kept.map((p) => jpeg(p.filename)));
  fireEvent.click(uploadButton());
  await waitFor(() => expect(screen.getAllByTestId('set-photo')).toHaveLength(6));
  return kept;
}

describe('training photos', () => {
  it('holds back what the browser can tell is wrong, then shows what the server kept and refused, with reasons', async () => {
    const kept = ['one.jpg', 'two.jpg', 'three.jpg', 'four.jpg', 'five.jpg'].map((n, i) =>
      photo(n, i === 1 ? ['Looks blurry: a sharper photo teaches more.'] : []),
    );
    server.on(uploadTrainingPhotosContract, () =>
      answer(
        uploadTrainingPhotosContract,
        {
          ...setOf(kept),
          refused: [
            { filename: 'six.jpg', reason: 'The same photo as two.jpg (a near-identical copy).' },
            { filename: 'seven.jpg', reason: 'Not a readable image.' },
          ],
        },
        201,
      ),
    );
    renderTraining();
    const names = ['one', 'two', 'three', 'four', 'five', 'six', 'seven'].map((n) => `${n}.jpg`);
    pick([
      ...names.map((n) => jpeg(n)),
      jpeg('small.jpg', 999),
      jpeg('one.jpg'),
      jpeg('notes.txt', 20, 'text/plain'),
    ]);

    // The browser's own checks: the same file twice, and a file that is not a photo.
    const picked = await screen.findAllByTestId('picked-photo');
    expect(picked).toHaveLength(10);
    const problems = () =>
      screen
        .getAllByTestId('picked-photo')
        .map((li) => [li.textContent?.split(/\.jpg|\.txt/)[0], li.dataset.problem]);
    expect(problems().filter(([, p]) => p !== 'none')).toEqual([
      ['one', 'duplicate'],
      ['notes', 'notPhoto'],
    ]);
    // A photo whose preview loads under 512 px on its short side is too small.
    const small = screen.getByAltText('Preview of small.jpg');
    Object.defineProperty(small, 'naturalWidth', { value: 640, configurable: true });
    Object.defineProperty(small, 'naturalHeight', { value: 480, configurable: true });
    fireEvent.load(small);
    const smallItem = small.closest('li')!;
    expect(smallItem.dataset.problem).toBe('tooSmall');
    expect(within(smallItem).getByTestId('picked-problem').textContent).toBe(
      'Too small: photos need at least 512 px on the short side.',
    );
    expect(within(smallItem).getByText('640 × 480 px')).toBeTruthy();
    expect(uploadButton().textContent).toBe('Upload 7 files');
    expect(screen.getByText('3 files held back, each with the reason shown.')).toBeTruthy();

    fireEvent.click(uploadButton());
    const refused = await screen.findByTestId('training-refused');
    expect(refused.getAttribute('role')).toBe('alert');
    expect(within(refused).getByText('2 files were refused:')).toBeTruthy();
    expect(
      within(refused)
        .getAllByTestId('refused-file')
        .map((li) => li.textContent),
    ).toEqual([
      'six.jpg: The same photo as two.jpg (a near-identical copy).',
      'seven.jpg: Not a readable image.',
    ]);
    // Only the seven good files were sent, each under `files`.
    const sent = server.requests.find((r) => r.url === '/api/upload_train_images')!;
    expect([...sent.body.matchAll(/name="files"; filename="([^"]+)"/g)].map((m) => m[1])).toEqual(names);

    const set = screen.getAllByTestId('set-photo');
    expect(set).toHaveLength(5);
    expect(within(set[1]!).getByTestId('photo-hint').textContent).toBe(
      'Looks blurry: a sharper photo teaches more.',
    );
    expect(within(set[0]!).getByRole('img').getAttribute('src')).toBe(kept[0]!.thumbnail_url);
    expect(screen.getByTestId('training-count').textContent).toBe('5 of 5–30 photos');
    // What was held back stays, with its reason, and is never sent.
    expect(screen.getAllByTestId('picked-photo').map((li) => li.dataset.problem)).toEqual([
      'tooSmall',
      'duplicate',
      'notPhoto',
    ]);
    expect(uploadButton().disabled).toBe(true);
  });

  it('adds more photos to the same set, removes one, and marks a file already uploaded as picked twice', async () => {
    renderTraining();
    const kept = await uploadSix();
    const more = photo('g.jpg');
    server.on(extendTrainingSetContract, (req) => {
      expect(req.params.id).toBe(SET_ID);
      return answer(extendTrainingSetContract, { ...setOf([...kept, more]), refused: [] });
    });
    expect(screen.getByText(tr.upload.chooseMore)).toBeTruthy();
    pick([jpeg('g.jpg'), jpeg('a.jpg')]);
    expect(screen.getAllByTestId('picked-photo').map((li) => li.dataset.problem)).toEqual([
      'none',
      'duplicate',
    ]);
    fireEvent.click(uploadButton());
    await waitFor(() => expect(screen.getAllByTestId('set-photo')).toHaveLength(7));
    expect(screen.getByTestId('training-count').textContent).toBe('7 of 5–30 photos');

    server.on(deleteTrainingPhotoContract, (req) => {
      expect(req.params).toEqual({ id: SET_ID, photo_id: kept[0]!.id });
      return answer(deleteTrainingPhotoContract, setOf([...kept.slice(1), more]));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.jpg from the set' }));
    await waitFor(() => expect(screen.getAllByTestId('set-photo')).toHaveLength(6));
    expect(screen.queryByRole('button', { name: 'Remove a.jpg from the set' })).toBeNull();
    // Removed from the set (and the held-back copy taken out), it may be picked again.
    fireEvent.click(screen.getByRole('button', { name: 'Take a.jpg out' }));
    expect(screen.queryByTestId('picked-photo')).toBeNull();
    pick([jpeg('a.jpg')]);
    expect(screen.getAllByTestId('picked-photo').map((li) => li.dataset.problem)).toEqual(['none']);
  });

  it("shows the server's refusal of a whole upload", async () => {
    server.on(uploadTrainingPhotosContract, () =>
      answerError(413, 'PAYLOAD_TOO_LARGE', 'These files add up to more than 200 MB.'),
    );
    renderTraining();
    pick(['a', 'b', 'c', 'd', 'e'].map((n) => jpeg(`${n}.jpg`)));
    fireEvent.click(uploadButton());
    expect((await screen.findByTestId('training-upload-error')).textContent).toBe(
      'These files add up to more than 200 MB.',
    );
    expect(screen.queryByTestId('train-form')).toBeNull();
    expect(screen.getAllByTestId('picked-photo')).toHaveLength(5);
  });

  it('counts loose photos against 5-30 before sending; a zip is counted by the server', async () => {
    renderTraining();
    pick(['a', 'b', 'c', 'd'].map((n) => jpeg(`${n}.jpg`)));
    expect(screen.getByTestId('training-count-problem').textContent).toBe(
      'A new set needs at least 5 photos; 4 are ready. Add more, or a zip.',
    );
    expect(uploadButton().disabled).toBe(true);
    pick([new File([new Uint8Array(64)], 'more.zip', { type: 'application/zip' })]);
    expect(screen.queryByTestId('training-count-problem')).toBeNull();
    expect(uploadButton().disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Take more.zip out' }));

    pick(Array.from({ length: 27 }, (_, i) => jpeg(`extra-${i}.jpg`)));
    expect(screen.getByTestId('training-count-problem').textContent).toBe(
      'That makes 31 photos; a set holds at most 30. Take some out first.',
    );
    expect(uploadButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Take extra-0.jpg out' }));
    expect(screen.queryByTestId('training-count-problem')).toBeNull();
    expect(uploadButton().textContent).toBe('Upload 30 files');
    expect(server.requests.some((r) => r.url === '/api/upload_train_images')).toBe(false);
  });
});

describe('a set from before', () => {
  const OLDER_ID = '6c1d3b63-8b5e-4e74-a0f9-2d3e4f5a6b7c';
  /** The newest set (six photos, one with a hint) and an older one, as the server lists them. */
  function storedBefore() {
    const newest = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'].map((n, i) =>
      photo(
        `${n}.jpg`,
        i === 2 ? ['No clear subject: choose photos where the subject fills the frame.'] : [],
      ),
    );
    storedSets = [
      { ...setOf(newest), updated_at: '2026-01-02T09:00:00.000Z' },
      { ...setOf([photo('old.jpg')]), id: OLDER_ID },
    ];
    return newest;
  }

  it('shows the newest stored set after a reload, with its hints, and goes on with it', async () => {
    const newest = storedBefore();
    renderTraining();
    await waitFor(() => expect(screen.getAllByTestId('set-photo')).toHaveLength(6));
    expect(screen.getByTestId('training-resumed').textContent).toBe(tr.set.resumed);
    expect(
      screen.getAllByTestId('set-photo').map((li) => within(li).getByRole('img').getAttribute('src')),
    ).toEqual(newest.map((p) => p.thumbnail_url));
    expect(within(screen.getAllByTestId('set-photo')[2]!).getByTestId('photo-hint').textContent).toBe(
      'No clear subject: choose photos where the subject fills the frame.',
    );
    expect(screen.queryByText('old.jpg')).toBeNull();
    expect(screen.getByTestId('training-count').textContent).toBe('6 of 5–30 photos');
    expect(screen.getByTestId('train-form')).toBeTruthy();

    // More photos go to that set, not a new one.
    server.on(extendTrainingSetContract, (req) => {
      expect(req.params.id).toBe(SET_ID);
      return answer(extendTrainingSetContract, { ...setOf([...newest, photo('n7.jpg')]), refused: [] });
    });
    pick([jpeg('n7.jpg')]);
    fireEvent.click(uploadButton());
    await waitFor(() => expect(screen.getAllByTestId('set-photo')).toHaveLength(7));
    expect(screen.queryByTestId('training-resumed')).toBeNull();
    expect(server.requests.some((r) => r.url === '/api/upload_train_images')).toBe(false);
  });

  it('deletes the shown set after asking, and leaves an empty page for a new one', async () => {
    storedBefore();
    let deleted: string | undefined;
    server.on(deleteTrainingSetContract, (req) => {
      deleted = req.params.id;
      return answer(deleteTrainingSetContract, { deleted: true });
    });
    renderTraining();
    await waitFor(() => expect(screen.getAllByTestId('set-photo')).toHaveLength(6));

    fireEvent.click(screen.getByTestId('training-delete-set'));
    expect(await screen.findByText('Delete these 6 photos?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: tr.set.keep }));
    await waitFor(() => expect(screen.queryByText('Delete these 6 photos?')).toBeNull());
    expect(deleted).toBeUndefined();

    fireEvent.click(screen.getByTestId('training-delete-set'));
    fireEvent.click(await screen.findByTestId('training-delete-set-confirm'));
    await waitFor(() => expect(screen.queryByTestId('set-photo')).toBeNull());
    expect(deleted).toBe(SET_ID);
    expect(screen.getByTestId('training-count').textContent).toBe('0 of 5–30 photos');
    expect(screen.queryByTestId('train-form')).toBeNull();
    expect(screen.queryByTestId('training-delete-set')).toBeNull();
    // The next upload starts a new set.
    await uploadSix();
    expect(server.requests.some((r) => r.url === '/api/upload_train_images')).toBe(true);
  });

  it('starts a new set on request, leaving the stored one as it is', async () => {
    storedBefore();
    renderTraining();
    await waitFor(() => expect(screen.getAllByTestId('set-photo')).toHaveLength(6));
    fireEvent.click(screen.getByTestId('training-new-set'));
    expect(screen.queryByTestId('set-photo')).toBeNull();
    expect(screen.queryByTestId('training-resumed')).toBeNull();
    expect(screen.getByText(tr.upload.choose)).toBeTruthy();
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });
});

describe('training form', () => {
  it('shows the price creditsFor gives for the trainer and steps, says plainly the local trainer is not AI, and blocks a short balance', async () => {
    const { rerender } = renderTraining({ balance: 500 });
    await uploadSix();
    const price = (m: typeof localTrainer, steps: number) =>
      creditsFor({ capability: 'train', creditCost: m.credit_cost, steps });
    expect(submit().textContent).toBe(`Start training · ${price(localTrainer, 1000)} credits`);
    expect(screen.getByTestId('local-trainer-note').textContent).toBe(tr.form.localNote);

    const steps = screen.getByLabelText(tr.form.steps) as HTMLInputElement;
    expect([steps.min, steps.max, steps.value]).toEqual(['100', '3000', '1000']);
    fireEvent.change(steps, { target: { value: '1550' } });
    expect(steps.step).toBe('25');
    expect(screen.getByTestId('training-steps-value').textContent).toBe('1550');
    expect(submit().textContent).toBe(`Start training · ${price(localTrainer, 1550)} credits`);
    expect(price(localTrainer, 1550)).toBe(47);

    fireEvent.click(screen.getByRole('radio', { name: /FLUX LoRA \(fal\)/ }));
    expect(screen.queryByTestId('local-trainer-note')).toBeNull();
    expect((screen.getByLabelText(tr.form.steps) as HTMLInputElement).min).toBe('500');
    expect(submit().textContent).toBe(`Start training · ${price(falTrainer, 1000)} credits`);
    expect(submit().disabled).toBe(false);

    rerender(<TrainingView models={models} balance={20} jobs={[]} onCreditsChanged={() => undefined} />);
    expect(submit().disabled).toBe(true);
    expect(screen.getByTestId('insufficient-credits').textContent).toContain(
      'This needs 45 credits and you have 20.',
    );
  });

  it('checks the trigger word before sending, and shows a refusal from the server', async () => {
    server.on(trainModelContract, () =>
      answerError(402, 'INSUFFICIENT_CREDITS', 'Training costs 30 credits and you have 12.'),
    );
    renderTraining();
    await uploadSix();
    fireEvent.change(screen.getByLabelText(tr.form.name), { target: { value: 'Anna' } });
    fireEvent.change(screen.getByLabelText(tr.form.trigger), { target: { value: '9 bad word' } });
    fireEvent.click(submit());
    expect(
      await screen.findByText('A trigger word is 2-24 letters, digits or _, starting with a letter'),
    ).toBeTruthy();
    expect(screen.getByLabelText(tr.form.trigger).getAttribute('aria-invalid')).toBe('true');
    expect(server.requests.some((r) => r.url === '/api/train_model')).toBe(false);

    fireEvent.change(screen.getByLabelText(tr.form.trigger), { target: { value: '' } });
    fireEvent.click(submit());
    const error = await screen.findByTestId('training-error');
    expect(error.textContent).toContain('Training costs 30 credits and you have 12.');
    expect(within(error).getByRole('link', { name: tr.form.buyCredits })).toBeTruthy();
  });
});

describe('a training', () => {
  /** Uploads, fills the form and starts; returns the request body the server got. */
  async function start(trainerName?: RegExp) {
    let body: unknown;
    const handler = (contract: typeof trainModelContract) => (req: { body: string }) => {
      body = JSON.parse(req.body);
      myModels = [trained()];
      return answer(
        contract,
        { job_id: JOB_ID, status: 'queued', cost: 30, balance: 470, model: trained() },
        202,
      );
    };
    server.on(trainModelContract, handler(trainModelContract));
    server.on(trainReplicateContract, handler(trainReplicateContract));
    await uploadSix();
    if (trainerName) fireEvent.click(screen.getByRole('radio', { name: trainerName }));
    fireEvent.change(screen.getByLabelText(tr.form.name), { target: { value: '  Anna portraits ' } });
    fireEvent.change(screen.getByLabelText(tr.form.trigger), { target: { value: 'ohwx_anna' } });
    fireEvent.click(screen.getByRole('radio', { name: tr.form.subjects.style }));
    fireEvent.click(submit());
    await screen.findByTestId('training-run');
    return body;
  }

  it('starts with what the form says, then shows live progress, the log line, an estimate, and the way to generate when done', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T12:10:00.000Z'));
    try {
      const { onCreditsChanged, setJobs } = renderTraining();
      const body = await start();
      expect(body).toEqual({
        set_id: SET_ID,
        name: 'Anna portraits',
        trigger_word: 'ohwx_anna',
        subject: 'style',
        base_model: 'local-trainer',
        steps: 1000,
      });
      expect(onCreditsChanged).toHaveBeenCalledWith(470);
      expect(screen.queryByTestId('train-form')).toBeNull();
      const run = screen.getByTestId('training-run');
      expect(within(run).getByText('ohwx_anna')).toBeTruthy();

      setJobs([
        fakeJob({
          id: JOB_ID,
          kind: 'train',
          model: 'local-trainer',
          prompt: null,
          status: 'running',
          queue_position: null,
          percent: 40,
          message: 'step 400/1000: palette learned, fitting the tone curve',
          cost: 30,
          num_images: 0,
          started_at: '2026-01-01T12:08:00.000Z',
        }),
      ]);
      expect(within(run).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
      expect(within(run).getByTestId('training-detail').textContent).toBe(
        'step 400/1000: palette learned, fitting the tone curve',
      );
      // 2 minutes for 40 %: 3 minutes for the other 60 %.
      expect(within(run).getByTestId('training-estimate').textContent).toBe('About 3 minutes left');
      expect(within(run).getByTestId('training-cancel')).toBeTruthy();
      expect(within(run).queryByTestId('training-generate')).toBeNull();

      myModels = [trained({ status: 'ready', cover_url: '/files/cover.webp' })];
      setJobs([
        fakeJob({
          id: JOB_ID,
          kind: 'train',
          status: 'succeeded',
          queue_position: null,
          percent: 100,
          started_at: '2026-01-01T12:08:00.000Z',
          finished_at: '2026-01-01T12:12:00.000Z',
        }),
      ]);
      expect(within(run).getByTestId('training-status').textContent).toBe(tr.job.status.succeeded);
      expect(within(run).getByTestId('training-detail').textContent).toBe(tr.job.done);
      expect(within(run).queryByTestId('training-cancel')).toBeNull();
      expect(within(run).getByTestId('training-generate').getAttribute('href')).toBe(
        `/generate?model=${MODEL_ID}`,
      );
      // Another model on the same photos: back to the form, the set kept.
      fireEvent.click(within(run).getByRole('button', { name: tr.run.again }));
      expect(screen.getByTestId('train-form')).toBeTruthy();
      expect(screen.getAllByTestId('set-photo')).toHaveLength(6);
    } finally {
      vi.useRealTimers();
    }
  });

  it('trains a Replicate model through the Replicate route', async () => {
    renderTraining();
    const body = (await start(/FLUX LoRA \(Replicate\)/)) as { base_model: string };
    expect(body.base_model).toBe('replicate-flux-lora');
    expect(server.requests.filter((r) => r.url === '/api/train_replicate')).toHaveLength(1);
    expect(server.requests.some((r) => r.url === '/api/train_model')).toBe(false);
  });

  it('cancels a running training; the refund is shown', async () => {
    const running = fakeJob({ id: JOB_ID, kind: 'train', status: 'running', percent: 10, cost: 30 });
    server.on(contracts.cancelJob, (req) => {
      expect(req.params.id).toBe(JOB_ID);
      return answer(contracts.cancelJob, { ...running, status: 'cancelled', refunded: true });
    });
    const { setJobs, onCreditsChanged } = renderTraining();
    await start();
    setJobs([running]);
    fireEvent.click(screen.getByTestId('training-cancel'));
    await waitFor(() => expect(onCreditsChanged).toHaveBeenCalledWith());
    expect(server.requests.some((r) => r.method === 'DELETE' && r.url === `/api/jobs/${JOB_ID}`)).toBe(true);
    // The feed then reports it cancelled.
    setJobs([{ ...running, status: 'cancelled', refunded: true }]);
    expect(screen.getByTestId('training-status').textContent).toBe(tr.job.status.cancelled);
    expect(screen.getByTestId('training-refunded').textContent).toBe('Your 30 credits were refunded.');
    expect(screen.queryByTestId('training-cancel')).toBeNull();
  });

  it('keeps a training started before the page opened in view, with its progress', async () => {
    myModels = [trained({ name: 'Earlier run' })];
    renderTraining({
      jobs: [
        fakeJob({ id: JOB_ID, kind: 'train', status: 'running', percent: 55, message: 'step 550/1000' }),
      ],
    });
    const running = await screen.findByTestId('training-running');
    expect(within(running).getByText('Earlier run')).toBeTruthy();
    expect(within(running).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('55');
    expect(within(running).getByTestId('training-cancel')).toBeTruthy();
  });

  it('shows why a training failed and that its credits were refunded', async () => {
    const { setJobs } = renderTraining();
    await start();
    setJobs([
      fakeJob({
        id: JOB_ID,
        kind: 'train',
        status: 'failed',
        cost: 30,
        refunded: true,
        error: 'The trainer stopped: it ran out of time.',
      }),
    ]);
    const failed = screen.getByTestId('training-failed');
    expect(failed.textContent).toContain('The trainer stopped: it ran out of time.');
    expect(within(failed).getByTestId('training-refunded').textContent).toBe(
      'Your 30 credits were refunded.',
    );
  });
});
