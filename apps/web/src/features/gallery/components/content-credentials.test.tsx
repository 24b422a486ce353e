import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, type ImageCredentialsView } from '@lumina/contracts';
import { fakeImage, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import commonEn from '../../../../public/locales/en/common.json';
import { GalleryView } from './gallery-view';

const { server, i18n } = setupApiServer();
afterEach(cleanup);

const words = commonEn.gallery.credentials;
const none: ImageCredentialsView = {
  present: false,
  issuer: null,
  signed_at: null,
  generator: null,
  actions: [],
  digital_source_type: null,
  made_with_ai: false,
  model: null,
  vendor: null,
  ingredients: [],
  valid: false,
  problems: [],
};

async function openLightbox(credentials: ImageCredentialsView, image = fakeImage({ prompt: 'harbour' })) {
  server.answer(contracts.listImages, { items: [image], next_cursor: null });
  server.answer(contracts.imageCredentials, credentials);
  renderWithApp(<GalleryView />, { i18n });
  fireEvent.click(await screen.findByRole('button', { name: `Open image: ${image.prompt}` }));
  const dialog = await screen.findByRole('dialog');
  return within(dialog);
}

describe('the content credentials panel', () => {
  it('says in plain words who made it with which model, that it was edited, and who signed it when', async () => {
    const panel = await openLightbox({
      ...none,
      present: true,
      issuer: 'Lumina Signer',
      signed_at: '2026-03-04T10:20:00.000Z',
      generator: 'Lumina',
      actions: ['c2pa.opened', 'c2pa.edited'],
      digital_source_type:
        'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
      made_with_ai: true,
      model: 'FLUX dev',
      vendor: 'fal.ai',
      ingredients: ['Lumina image a'],
      valid: true,
    });
    const section = within(await panel.findByTestId('content-credentials'));
    await waitFor(() =>
      expect(section.getByTestId('credentials-made').textContent).toBe('Made with AI by FLUX dev on fal.ai'),
    );
    expect(section.getByRole('heading').textContent).toBe(words.title);
    expect(section.getByTestId('credentials-edited').textContent).toBe('Edited from 1 image');
    expect(section.getByTestId('credentials-signed').textContent).toMatch(
      /^Signed by Lumina Signer on .*2026/,
    );
    expect(section.getByTestId('credentials-validity').textContent).toBe(words.valid);
    expect(server.requests.some((r) => r.url?.includes('/credentials'))).toBe(true);
  });

  it('warns when the signature does not validate, and has a state for images without credentials', async () => {
    const broken = await openLightbox({
      ...none,
      present: true,
      made_with_ai: true,
      actions: ['c2pa.created'],
    });
    await waitFor(() => expect(broken.getByTestId('credentials-validity').textContent).toBe(words.invalid));
    expect(broken.queryByTestId('credentials-edited')).toBeNull();
    expect(broken.getByTestId('credentials-made').textContent).toBe(words.madeWithAi);
    cleanup();
    const older = await openLightbox(none);
    await waitFor(() => expect(older.getByTestId('credentials-none').textContent).toBe(words.none));
  });

  it('is not shown for someone else’s public example (the credentials route is the owner’s)', async () => {
    const panel = await openLightbox(none, fakeImage({ prompt: 'example', is_own: false, is_example: true }));
    expect(panel.getByTestId('lightbox-recipe')).toBeTruthy();
    expect(panel.queryByTestId('content-credentials')).toBeNull();
    expect(server.requests.some((r) => r.url?.includes('/credentials'))).toBe(false);
  });
});
