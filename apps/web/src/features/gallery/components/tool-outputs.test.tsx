import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, type ImageView, type Tool } from '@lumina/contracts';
import { fakeImage, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import commonEn from '../../../../public/locales/en/common.json';
import { GalleryView } from './gallery-view';
import { HowItWasMade } from './how-it-was-made';

const { server, i18n } = setupApiServer();

afterEach(cleanup);

const tools = commonEn.studio.tools;
const made = commonEn.gallery.howItWasMade;
const SOURCE_A = '00000000-0000-4000-8000-00000000aaaa';
const SOURCE_B = '00000000-0000-4000-8000-00000000bbbb';

function serve(images: ImageView[]) {
  server.answer(contracts.listImages, { items: images, next_cursor: null });
}

async function openLightbox(prompt: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Open image: ${prompt}` }));
  return screen.findByRole('dialog');
}

describe('tool outputs in the gallery', () => {
  it("badges each tool output's card with the tool's name, and leaves generated images unbadged", async () => {
    serve([
      fakeImage({ prompt: 'generated' }),
      fakeImage({
        prompt: 'upscaled',
        kind: 'upscale',
        recipe: { tool: 'upscale', source_image_ids: [SOURCE_A], factor: 4 },
      }),
      fakeImage({
        prompt: 'restyled',
        kind: 'copy_style',
        recipe: { tool: 'copy_style', source_image_ids: [SOURCE_A], description: 'a harbour' },
      }),
    ]);
    renderWithApp(<GalleryView />, { i18n });
    await waitFor(() => expect(screen.getAllByTestId('image-card')).toHaveLength(3));
    const badgeOf = (prompt: string) =>
      within(
        screen.getByRole('button', { name: `Open image: ${prompt}` }).closest('figure') as HTMLElement,
      ).queryByTestId('tool-badge')?.textContent ?? null;
    expect(badgeOf('generated')).toBeNull();
    expect(badgeOf('upscaled')).toBe(tools.upscale.name);
    expect(badgeOf('restyled')).toBe(tools.copy_style.name);
  });

  it('explains how a tool output was made: the tool, its settings and how many source images', async () => {
    serve([
      fakeImage({
        prompt: 'warmer',
        kind: 'edit',
        recipe: { tool: 'edit', source_image_ids: [SOURCE_A], strength: 0.65 },
      }),
      fakeImage({
        prompt: 'holding',
        kind: 'product_holding',
        recipe: { tool: 'product_holding', source_image_ids: [SOURCE_A, SOURCE_B], aspect_ratio: '3:4' },
      }),
      fakeImage({ prompt: 'generated' }),
    ]);
    renderWithApp(<GalleryView />, { i18n });
    const dialog = await openLightbox('warmer');
    const block = () => within(dialog).getByTestId('how-it-was-made');
    const cell = (id: string) => within(block()).queryByTestId(id)?.textContent ?? null;

    expect(within(block()).getByRole('heading').textContent).toBe(made.title);
    expect(cell('made-tool')).toBe(tools.edit.name);
    expect(cell('made-strength')).toBe('0.65');
    expect(cell('made-sources')).toBe('1 source image');
    for (const absent of ['made-factor', 'made-aspect-ratio', 'made-duration', 'made-description'])
      expect(cell(absent)).toBeNull();

    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    await waitFor(() => expect(cell('made-tool')).toBe(tools.product_holding.name));
    expect(cell('made-aspect-ratio')).toBe('3:4');
    expect(cell('made-sources')).toBe('2 source images');
    expect(cell('made-strength')).toBeNull();

    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    await waitFor(() => expect(within(dialog).queryByTestId('how-it-was-made')).toBeNull());
    expect(within(dialog).getByTestId('recipe-prompt').textContent).toBe('generated');
  });

  it('shows the factor, length and description when the recipe has them', async () => {
    renderWithApp(
      <HowItWasMade
        image={{
          kind: 'upscale',
          recipe: {
            tool: 'upscale',
            source_image_ids: [SOURCE_A],
            factor: 4,
            duration: 5,
            description: 'a quiet harbour at dawn',
          },
        }}
      />,
      { i18n },
    );
    expect((await screen.findByTestId('made-factor')).textContent).toBe('4×');
    expect(screen.getByTestId('made-duration').textContent).toBe('5 s');
    expect(screen.getByTestId('made-description').textContent).toBe('a quiet harbour at dawn');
  });

  it('hands an own image to the chosen Studio tool, and offers no Studio actions for others’ examples', async () => {
    const own = fakeImage({ prompt: 'mine' });
    const example = fakeImage({ prompt: 'theirs', is_own: false, is_example: true, category: 'Landscapes' });
    serve([own, example]);
    const opened: [Tool, string][] = [];
    const handOff = {
      tools: ['edit', 'upscale', 'animate', 'copy_style'] as const,
      open: (tool: Tool, image: { id: string }) => opened.push([tool, image.id]),
    };
    renderWithApp(<GalleryView onOpenInStudio={handOff} />, { i18n });
    const dialog = await openLightbox('mine');
    const group = within(dialog).getByRole('group', { name: commonEn.gallery.openInStudio.title });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([tools.edit.name, tools.upscale.name, tools.animate.name, tools.copy_style.name]);

    fireEvent.click(within(group).getByRole('button', { name: tools.upscale.name }));
    fireEvent.click(within(group).getByRole('button', { name: tools.animate.name }));
    expect(opened).toEqual([
      ['upscale', own.id],
      ['animate', own.id],
    ]);

    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    await waitFor(() => expect(within(dialog).getByTestId('recipe-prompt').textContent).toBe('theirs'));
    expect(within(dialog).queryByTestId('open-in-studio')).toBeNull();
  });

  it('offers no Studio actions where the page does not pass the callback', async () => {
    serve([fakeImage({ prompt: 'mine' })]);
    renderWithApp(<GalleryView />, { i18n });
    const dialog = await openLightbox('mine');
    expect(within(dialog).queryByTestId('open-in-studio')).toBeNull();
  });
});
