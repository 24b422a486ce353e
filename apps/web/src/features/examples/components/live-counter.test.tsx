import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { contracts } from '@lumina/contracts';
import { renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { LiveCounter } from './example-showcase';

const { server, i18n } = setupApiServer();
afterEach(cleanup);

describe('landing counters', () => {
  it('shows images made, models trained and photo shoots delivered, holding their place while loading', async () => {
    server.answer(contracts.counter, {
      count: 12345,
      images: 12345,
      models_trained: 1,
      shoots_delivered: 37,
    });
    renderWithApp(<LiveCounter />, { i18n });
    const counter = screen.getByTestId('live-counter');
    // Before the answer the same sentence holds the place, invisibly.
    expect(counter.querySelector('.invisible')).not.toBeNull();
    await waitFor(() =>
      expect(counter.textContent).toBe(
        '12,345 images created so far · 1 model trained · 37 photo shoots delivered',
      ),
    );
    expect(counter.querySelector('.invisible')).toBeNull();
  });
});
