import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, type ImageCredentialsView } from '@lumina/contracts';
import { renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../../../public/locales/en/common.json';
import { VideoCredentials } from './video-credentials';

const { server, i18n } = setupApiServer();
afterEach(cleanup);

const VIDEO = { id: '20000000-0000-4000-8000-000000000001', created_at: '2026-03-04T10:20:00.000Z' };
const signed: ImageCredentialsView = {
  present: true,
  issuer: 'Lumina Signer',
  signed_at: null,
  generator: 'Lumina',
  actions: ['c2pa.opened', 'c2pa.edited'],
  digital_source_type: 'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
  made_with_ai: true,
  model: 'Animate',
  vendor: 'fal.ai',
  ingredients: ['Lumina image a'],
  valid: true,
  problems: [],
};
const asked = () => server.requests.filter((r) => r.url === `/api/animate/videos/${VIDEO.id}/credentials`);

function open() {
  const details = screen.getByTestId('video-credentials') as HTMLDetailsElement;
  fireEvent.click(within(details).getByText(commonEn.gallery.credentials.title));
  return details;
}

describe("a video's content credentials", () => {
  it('are read only once opened, and say the video was animated from its image by AI, signed and intact', async () => {
    server.on(contracts.videoCredentials, () => answer(contracts.videoCredentials, signed));
    renderWithApp(<VideoCredentials video={VIDEO} />, { i18n });
    await new Promise((r) => setTimeout(r, 50));
    expect(asked()).toHaveLength(0);

    const details = open();
    await waitFor(() =>
      expect(within(details).getByTestId('credentials-made').textContent).toBe(
        'Made with AI by Animate on fal.ai',
      ),
    );
    expect(within(details).getByTestId('credentials-edited').textContent).toBe('Animated from 1 image');
    expect(within(details).getByTestId('credentials-signed').textContent).toMatch(
      /^Signed by Lumina Signer on /,
    );
    expect(within(details).getByTestId('credentials-validity').textContent).toBe(
      commonEn.gallery.credentials.valid,
    );
    expect(asked()).toHaveLength(1);
  });

  it('say plainly when a video has none, and when they cannot be read', async () => {
    server.on(contracts.videoCredentials, () =>
      answer(contracts.videoCredentials, { ...signed, present: false, actions: [], valid: false }),
    );
    renderWithApp(<VideoCredentials video={VIDEO} />, { i18n });
    const details = open();
    expect((await within(details).findByTestId('credentials-none')).textContent).toBe(
      commonEn.gallery.credentials.noneVideo,
    );
    cleanup();

    server.on(contracts.videoCredentials, () => answerError(500, 'INTERNAL', 'boom'));
    renderWithApp(<VideoCredentials video={{ ...VIDEO, id: '20000000-0000-4000-8000-000000000002' }} />, {
      i18n,
    });
    expect(
      await within(open()).findByText(commonEn.gallery.credentials.failed, {}, { timeout: 5000 }),
    ).toBeTruthy();
  });
});
