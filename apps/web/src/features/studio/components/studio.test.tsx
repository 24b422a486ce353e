import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, type JobView, type VideoView } from '@lumina/contracts';
import { fakeImage, fakeJob, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError, type ResponseOf } from '@/testing/fake-api';
import { setupNodeFormData } from '@/testing/node-form-data';
import commonEn from '../../../../public/locales/en/common.json';
import { studioStore } from '../stores/studio-store';
import { BeforeAfter } from './before-after';
import { StudioView, type StudioViewProps } from './studio-view';

const MB = 1024 * 1024;
const s = commonEn.studio;

type Catalogue = ResponseOf<typeof contracts.tools>;
type ToolModel = Catalogue['tools'][number]['models'][number];

const model = (id: string, credit_cost: number, extra: Partial<ToolModel> = {}): ToolModel => ({
  id,
  display_name: id,
  description: `The ${id} model`,
  provider: 'local',
  available: true,
  unavailable_reason: null,
  credit_cost,
  ...extra,
});

const catalogue: Catalogue = {
  tools: [
    {
      tool: 'edit',
      default_model: 'local-edit',
      models: [
        model('fal-flux-edit', 4, {
          provider: 'fal',
          available: false,
          unavailable_reason: 'Add FAL_KEY to use fal.ai models',
        }),
        model('local-edit', 1),
      ],
    },
    { tool: 'copy_style', default_model: 'local-style', models: [model('local-style', 1)] },
    { tool: 'product_holding', default_model: 'local-product', models: [model('local-product', 2)] },
    { tool: 'upscale', default_model: 'local-upscale', models: [model('local-upscale', 2)] },
    { tool: 'animate', default_model: 'local-animate', models: [model('local-animate', 1)] },
  ],
  aspect_ratios: ['1:1', '3:4', '4:3', '9:16', '16:9'],
  upscale_factors: [2, 4],
  animate_durations: [5, 10],
  upload_max_bytes: MB,
  upload_max_pixels: 50_000_000,
  pricing: { upscale_4x_multiplier: 2, animate_per_second: true },
};

const { server, i18n } = setupApiServer();
setupNodeFormData();
beforeAll(() => {
  server.answer(contracts.tools, catalogue);
});
afterEach(() => {
  cleanup();
  studioStore.getState().reset();
});

/** The first bytes of each kind of picture (what the drop zone checks before taking a file). */
const MAGIC: Record<string, number[]> = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  heic: [
    0,
    0,
    0,
    24,
    ...[...'ftypheic'].map((c) => c.charCodeAt(0)),
    0,
    0,
    0,
    0,
    ...[...'mif1heic'].map((c) => c.charCodeAt(0)),
  ],
};

/** A file of `size` bytes that starts like the picture its type (or name) says; other types get zeros. */
const png = (name: string, size: number, type = 'image/png') => {
  const bytes = new Uint8Array(size);
  const kind =
    type === 'image/png' ? 'png' : type === 'image/jpeg' ? 'jpeg' : /\.heic$/i.test(name) ? 'heic' : null;
  if (kind) bytes.set(MAGIC[kind]!.slice(0, size));
  return new File([bytes], name, { type });
};

function renderStudio(props: Partial<StudioViewProps> = {}) {
  const view = renderWithApp(<StudioView balance={10} jobs={[]} {...props} />, { i18n });
  return {
    ...view,
    update: (next: Partial<StudioViewProps>) =>
      view.rerender(<StudioView balance={10} jobs={[]} {...props} {...next} />),
  };
}

async function openTool(name: string) {
  fireEvent.click(await screen.findByRole('tab', { name }));
  return screen.findByTestId('tool-submit');
}

const submit = () => screen.getByTestId('tool-submit') as HTMLButtonElement;
const why = () => screen.getByTestId('tool-why').textContent;
const requestsTo = (path: string) => server.requests.filter((r) => r.url.split('?')[0] === path);

describe('studio tools', () => {
  it('shows the cost from the catalogue pricing before starting, and why Start is disabled', async () => {
    const { update } = renderStudio({ balance: 3 });
    await openTool(s.tools.upscale.name);
    expect(screen.getByRole('tab', { name: s.tools.upscale.name }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(submit().textContent).toBe('Upscale · 2 credits');
    expect(submit().disabled).toBe(true);
    expect(why()).toBe(s.form.blocked.noInput);

    fireEvent.change(screen.getByTestId('input-file-upscale'), {
      target: { files: [png('small.png', 2048)] },
    });
    await waitFor(() => expect(submit().disabled).toBe(false));
    expect(why()).toBe('You have 3 credits; 1 left after this run.');

    fireEvent.click(screen.getByRole('radio', { name: '4×' }));
    expect(submit().textContent).toBe('Upscale · 4 credits');
    expect(submit().disabled).toBe(true);
    expect(why()).toBe(s.form.blocked.credits);
    expect(screen.getByTestId('insufficient-credits').textContent).toContain(
      'This needs 4 credits and you have 3.',
    );

    update({ balance: 4 });
    expect(submit().disabled).toBe(false);

    fireEvent.click(screen.getByRole('tab', { name: s.tools.animate.name }));
    await waitFor(() => expect(submit().textContent).toBe('Animate · 5 credits'));
    fireEvent.click(screen.getByRole('radio', { name: '10 seconds' }));
    expect(submit().textContent).toBe('Animate · 10 credits');
  });

  it('refuses a file over the upload limit or not an image before sending anything', async () => {
    renderStudio();
    await openTool(s.tools.edit.name);
    const input = screen.getByTestId('input-file-edit');
    fireEvent.change(input, { target: { files: [png('huge.png', 2 * MB)] } });
    expect(screen.getByTestId('input-problem-edit').textContent).toBe(
      'This file is 2 MB, which is over the 1 MB limit. Choose a smaller picture or resize it first.',
    );
    fireEvent.change(input, { target: { files: [png('notes.txt', 20, 'text/plain')] } });
    expect(screen.getByTestId('input-problem-edit').textContent).toBe(s.input.problems.notImage);
    expect(screen.getByTestId('image-input-edit').dataset.filled).toBe('false');
    expect(submit().disabled).toBe(true);
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('previews a JPEG itself and a HEIC through convert-preview, with name and size', async () => {
    server.on(contracts.convertPreview, (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    });
    renderStudio();
    await openTool(s.tools.edit.name);
    fireEvent.change(screen.getByTestId('input-file-edit'), {
      target: { files: [png('beach.jpg', 3 * 1024, 'image/jpeg')] },
    });
    const preview = await screen.findByTestId('input-preview-edit');
    expect(preview.getAttribute('src')).toMatch(/^blob:/);
    expect(screen.getByTestId('input-meta-edit').textContent).toBe('3 KB');
    expect(requestsTo('/api/images/convert-preview')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: `Remove the ${s.input.edit} image` }));
    expect(screen.queryByTestId('input-preview-edit')).toBeNull();

    fireEvent.change(screen.getByTestId('input-file-edit'), {
      target: { files: [png('IMG_0042.HEIC', 4096, '')] },
    });
    await waitFor(() =>
      expect(screen.getByTestId('input-preview-edit').getAttribute('src')).toMatch(/^blob:/),
    );
    const [convert] = requestsTo('/api/images/convert-preview');
    expect(convert?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(convert?.body).toContain('name="file"');
    expect(screen.getByText('IMG_0042.HEIC')).toBeTruthy();
  });

  it('uploads a picked file, upscales it by id, follows the live progress and compares the result', async () => {
    const uploaded = fakeImage({ kind: 'upload', width: 300, height: 200, prompt: null });
    const jobId = '10000000-0000-4000-8000-000000000001';
    const result = fakeImage({ kind: 'upscale', width: 600, height: 400 });
    server.answer(contracts.uploadImage, uploaded);
    server.answer(contracts.upscale, { job_id: jobId, status: 'queued', cost: 2, balance: 8 });
    server.answer(contracts.listImages, { items: [result], next_cursor: null });
    const spent: (number | undefined)[] = [];
    let started = 0;
    const { update } = renderStudio({
      onCreditsChanged: (b) => spent.push(b),
      onJobStarted: () => (started += 1),
    });
    await openTool(s.tools.upscale.name);
    fireEvent.change(screen.getByTestId('input-file-upscale'), { target: { files: [png('tiny.png', 512)] } });
    await waitFor(() => expect(submit().disabled).toBe(false));
    fireEvent.click(submit());

    await waitFor(() => expect(spent).toEqual([8]));
    expect(started).toBe(1);
    expect(requestsTo('/api/images/upload')[0]?.body).toContain('name="file"');
    expect(JSON.parse(requestsTo('/api/upscale/')[0]?.body ?? '')).toEqual({
      image_id: uploaded.id,
      factor: 2,
      model: 'local-upscale',
    });
    // Before the feed knows the job, the run shows as accepted.
    expect(screen.getByTestId('run-status').textContent).toBe(s.run.status.queued);
    expect(screen.getByTestId('upscale-target').textContent).toBe('300 × 200 px becomes 600 × 400 px');

    const job = (patch: Partial<JobView>) =>
      fakeJob({ id: jobId, kind: 'upscale', model: 'local-upscale', prompt: null, cost: 2, ...patch });
    update({ jobs: [job({ status: 'queued', queue_position: 2 })] });
    expect(screen.getByTestId('run-detail').textContent).toBe('#2 in the queue');
    update({ jobs: [job({ status: 'running', queue_position: null, percent: 40, message: 'Sharpening' })] });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByTestId('run-detail').textContent).toBe('Sharpening');

    update({ jobs: [job({ status: 'succeeded', percent: 100, image_ids: [result.id] })] });
    const slider = await screen.findByRole('slider', { name: s.result.compare });
    expect(slider.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByTestId('compare-after').getAttribute('src')).toBe(result.url);
    expect(screen.getByTestId('result-size').textContent).toBe('300 × 200 px → 600 × 400 px (2×)');
    expect(requestsTo('/api/images').at(-1)?.url).toContain(`job_id=${jobId}`);
    expect(screen.getByTestId('result-download').getAttribute('href')).toBe(result.url);

    // A second run reuses the stored copy instead of uploading again.
    fireEvent.click(submit());
    await waitFor(() => expect(requestsTo('/api/upscale/')).toHaveLength(2));
    expect(requestsTo('/api/images/upload')).toHaveLength(1);
  });

  it('sends an edit with a file as multipart, and shows the server detail when it is refused', async () => {
    server.on(contracts.editImageFile, () =>
      answerError(402, 'INSUFFICIENT_CREDITS', 'You need 3 more credits for this edit.'),
    );
    renderStudio();
    await openTool(s.tools.edit.name);
    fireEvent.change(screen.getByTestId('input-file-edit'), { target: { files: [png('cat.png', 1000)] } });
    await waitFor(() => expect(submit().disabled).toBe(false));

    fireEvent.click(submit());
    expect(await screen.findByText('Describe the change you want')).toBeTruthy();
    expect(requestsTo('/api/generate/falai/edit_image_file')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText(s.form.prompt), { target: { value: 'warmer, golden hour' } });
    fireEvent.change(screen.getByLabelText(s.form.seed), { target: { value: '42' } });
    fireEvent.click(submit());
    expect((await screen.findByTestId('tool-error')).textContent).toBe(
      'You need 3 more credits for this edit.',
    );
    const body = requestsTo('/api/generate/falai/edit_image_file')[0]?.body ?? '';
    for (const field of ['prompt', 'strength', 'seed', 'model', 'image_file'])
      expect(body).toContain(`name="${field}"`);
    expect(body).toMatch(/name="prompt"\r\n\r\nwarmer, golden hour\r\n/);
    expect(body.indexOf('name="image_file"')).toBeGreaterThan(body.indexOf('name="model"'));
  });

  it('chooses an input from the gallery and edits it by id; a failed run shows the refund', async () => {
    const own = fakeImage({ prompt: 'a red fox', width: 640, height: 480 });
    const upload = fakeImage({ kind: 'upload', prompt: null });
    const jobId = '10000000-0000-4000-8000-000000000002';
    server.on(contracts.listImages, (req) =>
      answer(contracts.listImages, {
        items: req.query.get('kind') === 'upload' ? [upload] : [own],
        next_cursor: null,
      }),
    );
    server.answer(contracts.editImage, { job_id: jobId, status: 'queued', cost: 1, balance: 9 });
    const { update } = renderStudio();
    await openTool(s.tools.edit.name);
    fireEvent.click(screen.getByRole('button', { name: `Choose from gallery for ${s.input.edit}` }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('tab', { name: s.picker.uploads }));
    await waitFor(() => expect(within(dialog).getByTestId('picker-image').dataset.imageId).toBe(upload.id));
    fireEvent.click(within(dialog).getByRole('tab', { name: s.picker.images }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Use a red fox' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('input-meta-edit').textContent).toBe(
      `${s.input.fromYourGallery} · 640 × 480 px`,
    );

    fireEvent.change(screen.getByLabelText(s.form.prompt), { target: { value: 'snowy night' } });
    fireEvent.click(submit());
    await screen.findByTestId('run-progress');
    expect(JSON.parse(requestsTo('/api/generate/falai/edit_image')[0]?.body ?? '')).toEqual({
      image_id: own.id,
      prompt: 'snowy night',
      strength: 0.6,
      model: 'local-edit',
    });
    expect(requestsTo('/api/images/upload')).toHaveLength(0);

    update({
      jobs: [
        fakeJob({
          id: jobId,
          kind: 'edit',
          status: 'failed',
          cost: 1,
          refunded: true,
          error: 'The engine could not read this image.',
        }),
      ],
    });
    const failed = screen.getByTestId('run-failed');
    expect(failed.textContent).toContain('The engine could not read this image.');
    expect(within(failed).getByTestId('run-refunded').textContent).toBe('Your 1 credit was refunded.');
  });

  it("learns a local file's pixel size from its preview, and refuses one over the pixel limit", async () => {
    renderStudio();
    await openTool(s.tools.upscale.name);
    const pick = async (name: string, width: number, height: number) => {
      fireEvent.change(screen.getByTestId('input-file-upscale'), {
        target: { files: [png(name, 3 * 1024, 'image/jpeg')] },
      });
      const img = await screen.findByTestId('input-preview-upscale');
      Object.defineProperty(img, 'naturalWidth', { value: width, configurable: true });
      Object.defineProperty(img, 'naturalHeight', { value: height, configurable: true });
      fireEvent.load(img);
    };
    await pick('photo.jpg', 300, 200);
    expect(screen.getByTestId('input-meta-upscale').textContent).toBe('3 KB · 300 × 200 px');
    expect(screen.getByTestId('upscale-target').textContent).toBe('300 × 200 px becomes 600 × 400 px');

    await pick('panorama.jpg', 10_000, 6_000);
    expect(screen.getByTestId('input-problem-upscale').textContent).toBe(
      'This picture is 10000 × 6000 px, more than the 50 megapixels we can work with. Resize it and try again.',
    );
    expect(screen.getByTestId('image-input-upscale').dataset.filled).toBe('false');
  });

  it('sends product holding with a file for one side and a gallery id for the other; copy style sends the gallery image as a file', async () => {
    const product = fakeImage({ prompt: 'red bottle', width: 256, height: 256 });
    server.answer(contracts.listImages, { items: [product], next_cursor: null });
    server.route('GET', product.url, (_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])),
    );
    const accepted = (id: string) => ({ job_id: id, status: 'queued' as const, cost: 2, balance: 5 });
    server.answer(contracts.productHolding, accepted('10000000-0000-4000-8000-000000000003'));
    server.answer(contracts.copyStyle, accepted('10000000-0000-4000-8000-000000000004'));
    renderStudio();

    await openTool(s.tools.product_holding.name);
    expect(why()).toBe(s.form.blocked.noPerson);
    fireEvent.change(screen.getByTestId('input-file-person'), {
      target: { files: [png('me.jpg', 900, 'image/jpeg')] },
    });
    await waitFor(() => expect(why()).toBe(s.form.blocked.noProduct));
    fireEvent.click(screen.getByRole('button', { name: `Choose from gallery for ${s.input.product}` }));
    fireEvent.click(await screen.findByRole('button', { name: 'Use red bottle' }));
    fireEvent.click(screen.getByRole('radio', { name: '9:16' }));
    expect(submit().textContent).toBe('Create · 2 credits');
    fireEvent.click(submit());
    await screen.findByTestId('run-progress');
    const form = requestsTo('/api/generate/falai/product_holding')[0]?.body ?? '';
    expect(form).toMatch(/name="aspect_ratio"\r\n\r\n9:16\r\n/);
    expect(form).toMatch(new RegExp(`name="product_image_id"\\r\\n\\r\\n${product.id}\\r\\n`));
    expect(form).toContain('name="person_file"; filename="me.jpg"');
    expect(form).not.toContain('name="person_image_id"');
    expect(form).not.toContain('name="product_file"');
    expect(requestsTo('/api/images/upload')).toHaveLength(0);

    fireEvent.click(screen.getByRole('tab', { name: s.tools.copy_style.name }));
    fireEvent.click(
      await screen.findByRole('button', { name: `Choose from gallery for ${s.input.copy_style}` }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Use red bottle' }));
    fireEvent.change(screen.getByLabelText(s.form.description), { target: { value: 'a lighthouse' } });
    fireEvent.click(submit());
    await screen.findByTestId('run-progress');
    const style = requestsTo('/api/copy_style')[0]?.body ?? '';
    expect(style).toMatch(/name="description"\r\n\r\na lighthouse\r\n/);
    expect(style).toMatch(/name="image"; filename="image-[0-9a-f]{8}\.png"\r\nContent-Type: image\/png/);
    expect(requestsTo(product.url)).toHaveLength(1);
  });

  it('plays finished videos inline and deletes one after a confirmation', async () => {
    const video = (patch: Partial<VideoView>): VideoView => ({
      id: '20000000-0000-4000-8000-000000000001',
      status: 'succeeded',
      percent: 100,
      error: null,
      prompt: 'slow zoom',
      model: 'local-animate',
      source_image_id: null,
      source_image: null,
      is_saved: false,
      url: '/files/v1.mp4',
      poster_url: '/files/v1.jpg',
      duration_seconds: 5,
      width: 1280,
      height: 720,
      bytes: 1536 * 1024,
      cost: 5,
      created_at: new Date().toISOString(),
      ...patch,
    });
    let items = [
      video({}),
      video({
        id: '20000000-0000-4000-8000-000000000002',
        status: 'running',
        percent: 30,
        url: null,
        poster_url: null,
      }),
    ];
    server.on(contracts.videos, () => answer(contracts.videos, { items, next_cursor: null }));
    server.on(contracts.deleteVideo, (req) => {
      if (req.params.id !== '20000000-0000-4000-8000-000000000001')
        return answerError(404, 'NOT_FOUND', 'No such video');
      items = items.slice(1);
      return answer(contracts.deleteVideo, { deleted: true });
    });
    renderStudio();
    await openTool(s.tools.animate.name);
    const cards = await screen.findAllByTestId('video-card');
    expect(cards).toHaveLength(2);
    const player = cards[0]!.querySelector('video');
    expect(player?.getAttribute('poster')).toBe('/files/v1.jpg');
    expect(player?.getAttribute('src')).toBe('/files/v1.mp4');
    expect(player?.hasAttribute('playsinline')).toBe(true);
    expect(cards[0]!.textContent).toContain('5 s · 1280 × 720 px · 1.5 MB');
    expect(within(cards[1]!).getByTestId('video-status').textContent).toBe('Working · 30%');
    expect(within(cards[1]!).queryByTestId('video-delete')).toBeNull();

    fireEvent.click(within(cards[0]!).getByTestId('video-delete'));
    fireEvent.click(within(cards[0]!).getByTestId('video-delete-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('video-card')).toHaveLength(1));
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(true);
  });
});

describe('before/after slider', () => {
  it('moves with the keyboard and follows a pointer drag', () => {
    renderWithApp(<BeforeAfter before="/b.png" after="/a.png" width={400} height={300} />, { i18n });
    const slider = screen.getByRole('slider');
    expect(slider.getAttribute('aria-valuenow')).toBe('50');
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(slider.getAttribute('aria-valuenow')).toBe('51');
    fireEvent.keyDown(slider, { key: 'PageDown' });
    expect(slider.getAttribute('aria-valuenow')).toBe('41');
    fireEvent.keyDown(slider, { key: 'Home' });
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    expect(slider.getAttribute('aria-valuetext')).toBe('0% shows the original');
    expect(screen.getByTestId('compare-before').style.clipPath).toBe('inset(0 100% 0 0)');

    const box = screen.getByTestId('before-after');
    box.getBoundingClientRect = () => ({ left: 100, width: 400, top: 0, height: 300 }) as DOMRect;
    act(() => {
      fireEvent.pointerDown(box, { clientX: 400, button: 0, pointerId: 1 });
    });
    expect(slider.getAttribute('aria-valuenow')).toBe('75');
    fireEvent.pointerMove(box, { clientX: 200, pointerId: 1 });
    expect(slider.getAttribute('aria-valuenow')).toBe('25');
    fireEvent.pointerUp(box, { pointerId: 1 });
    fireEvent.pointerMove(box, { clientX: 450, pointerId: 1 });
    expect(slider.getAttribute('aria-valuenow')).toBe('25');
    expect(document.activeElement).toBe(slider);
  });
});
