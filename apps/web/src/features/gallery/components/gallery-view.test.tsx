import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, type ImageView } from '@lumina/contracts';
import { fakeImage, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../../../public/locales/en/common.json';
import { GalleryView } from './gallery-view';

const { server, i18n } = setupApiServer();

/** IntersectionObserver stand-in: every observed element counts as on screen as soon as it is observed. */
class VisibleObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    queueMicrotask(() =>
      this.callback([{ isIntersecting: true, target } as IntersectionObserverEntry], this as never),
    );
  }
  disconnect() {}
  unobserve() {}
}

beforeAll(async () => {
  server.answer(contracts.exampleCategories, {
    categories: [
      { name: 'Landscapes', count: 3 },
      { name: 'Portraits', count: 1 },
    ],
  });
});
afterEach(() => {
  cleanup();
  delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

const listRequests = () =>
  server.requests
    .filter((r) => r.url.startsWith('/api/images?'))
    .map((r) => new URL(r.url, server.url).searchParams);

function servePages(pages: ImageView[][]) {
  server.on(contracts.listImages, (req) => {
    const cursor = req.query.get('cursor');
    const index = cursor ? Number(cursor) : 0;
    return answer(contracts.listImages, {
      items: pages[index] ?? [],
      next_cursor: index + 1 < pages.length ? String(index + 1) : null,
    });
  });
}

describe('gallery', () => {
  it('loads the next page with the cursor as the sentinel comes into view, until the end', async () => {
    globalThis.IntersectionObserver = VisibleObserver as unknown as typeof IntersectionObserver;
    const pages = [0, 1, 2].map((p) =>
      Array.from({ length: p < 2 ? 3 : 1 }, (_, i) => fakeImage({ prompt: `p${p}-${i}` })),
    );
    servePages(pages);
    renderWithApp(<GalleryView />, { i18n });
    await waitFor(() => expect(screen.getAllByTestId('image-card')).toHaveLength(7));
    expect(screen.getByText("That's all 7 images")).toBeTruthy();
    const cursors = listRequests().map((q) => q.get('cursor'));
    expect(cursors).toEqual([null, '1', '2']);
    expect(listRequests().every((q) => q.get('limit') === '24')).toBe(true);
  });

  it('queries saved with is_saved=true and examples with is_example=true, category only when one is chosen', async () => {
    servePages([[]]);
    renderWithApp(<GalleryView models={[{ id: 'flux-dev', display_name: 'FLUX.1 dev' }]} />, { i18n });
    expect((await screen.findByTestId('gallery-empty')).textContent).toContain(
      commonEn.gallery.empty.all.title,
    );

    fireEvent.click(screen.getByRole('tab', { name: commonEn.gallery.tabs.saved }));
    expect((await screen.findByText(commonEn.gallery.empty.saved.title)).textContent).toBeTruthy();
    expect(screen.getByText(commonEn.gallery.empty.saved.body)).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: commonEn.gallery.tabs.examples }));
    await screen.findByText(commonEn.gallery.empty.examples.title);
    fireEvent.click(await screen.findByRole('button', { name: /Landscapes/ }));
    await waitFor(() => expect(listRequests().some((q) => q.get('category') === 'Landscapes')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: commonEn.gallery.allCategories }));
    fireEvent.change(screen.getByRole('combobox'), { target: { value: 'flux-dev' } });
    await screen.findByText(commonEn.gallery.empty.filtered.title);

    const queries = listRequests().map((q) => Object.fromEntries([...q].filter(([k]) => k !== 'limit')));
    expect(queries).toEqual([
      {},
      { is_saved: 'true' },
      { is_example: 'true' },
      { is_example: 'true', category: 'Landscapes' },
      { is_example: 'true', model: 'flux-dev' },
    ]);
  });

  it('favourites and saves optimistically, and rolls back with the reason when the server refuses', async () => {
    const image = fakeImage({ prompt: 'a fox' });
    servePages([[image]]);
    let releaseFavorite: () => void = () => undefined;
    server.on(
      contracts.favoriteImage,
      () =>
        new Promise((resolve) => {
          releaseFavorite = () => resolve(answerError(500, 'INTERNAL', 'Could not favourite right now'));
        }),
    );
    server.answer(contracts.saveImage, { ...image, is_saved: true });
    renderWithApp(<GalleryView />, { i18n });
    const card = await screen.findByTestId('image-card');

    fireEvent.click(within(card).getByTestId('action-favorite'));
    await waitFor(() =>
      expect(within(card).getByTestId('action-favorite').getAttribute('aria-pressed')).toBe('true'),
    );
    releaseFavorite();
    await waitFor(() =>
      expect(within(card).getByTestId('action-favorite').getAttribute('aria-pressed')).toBe('false'),
    );
    expect((await within(card).findByRole('alert')).textContent).toBe('Could not favourite right now');

    fireEvent.click(within(card).getByTestId('action-save'));
    await waitFor(() =>
      expect(within(card).getByTestId('action-save').getAttribute('aria-pressed')).toBe('true'),
    );
    expect(within(card).getByTestId('action-save').getAttribute('aria-label')).toBe(
      commonEn.images.actions.unsave,
    );
  });

  it('opens the lightbox with the full recipe; remix, tracked download, and delete after confirming', async () => {
    const image = fakeImage({
      prompt: 'a lighthouse',
      negative_prompt: 'boats',
      seed: 777,
      lora_scale: 0.75,
      prompt_strength: 0.5,
      width: 1344,
      height: 768,
      duration_ms: 1500,
    });
    servePages([[image]]);
    server.answer(contracts.deleteImage, { deleted: true });
    const remixed: string[] = [];
    renderWithApp(
      <GalleryView
        models={[{ id: 'lumina-local', display_name: 'Lumina Local' }]}
        onRemix={(img) => remixed.push(img.id)}
      />,
      { i18n },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Open image: a lighthouse' }));
    const dialog = await screen.findByRole('dialog');
    const recipe = within(dialog).getByTestId('lightbox-recipe');
    for (const text of [
      'boats',
      'Lumina Local',
      'Local engine',
      '777',
      '0.75',
      '0.5',
      '1344 × 768 px',
      '1.5 s',
    ])
      expect(recipe.textContent).toContain(text);
    fireEvent.click(within(dialog).getByTestId('action-remix'));
    expect(remixed).toEqual([image.id]);

    server.answer(contracts.trackDownload, { download_count: 1 });
    const clicked: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(`${this.getAttribute('href')} ${this.download}`);
    };
    try {
      fireEvent.click(within(dialog).getByTestId('action-download'));
      await waitFor(() => expect(clicked).toHaveLength(1));
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    expect(
      server.requests.some((r) => r.method === 'POST' && r.url === `/api/track/images/${image.id}`),
    ).toBe(true);
    expect(clicked[0]).toBe(`${image.url} a-lighthouse-${image.id.slice(0, 8)}.png`);

    fireEvent.click(within(dialog).getByTestId('action-delete'));
    const confirm = await screen.findByRole('dialog', { name: commonEn.images.delete.title });
    fireEvent.click(within(confirm).getByRole('button', { name: commonEn.images.delete.confirm }));
    await waitFor(() => expect(screen.queryByTestId('image-card')).toBeNull());
    expect(server.requests.some((r) => r.method === 'DELETE' && r.url === `/api/images/${image.id}`)).toBe(
      true,
    );
  });
});
