import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, REVIEW_COMMENT_MAX, type PendingReview } from '@lumina/contracts';
import { renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { validateReview } from './review-form';
import { ReviewPrompt } from './review-prompt';

const { server, i18n } = setupApiServer();
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

const pending = (n: number, name = 'Starter'): PendingReview => ({
  payment_id: `00000000-0000-4000-8000-00000000000${n}`,
  product_id: `pack-${n}`,
  package_name: name,
  product_name: name,
  paid_at: '2026-01-01T12:00:00.000Z',
});

function serveReviews(list: PendingReview[]) {
  server.on(contracts.pendingReviews, () => answer(contracts.pendingReviews, { pending: list }));
  server.on(contracts.createReview, (req) => {
    const input = JSON.parse(req.body) as {
      payment_id: string;
      product_id: string;
      rating: number;
      comment?: string;
    };
    list.splice(
      list.findIndex((p) => p.payment_id === input.payment_id),
      1,
    );
    return answer(contracts.createReview, {
      id: '10000000-0000-4000-8000-000000000001',
      ...input,
      comment: input.comment ?? null,
      created_at: '2026-01-01T12:00:00.000Z',
    });
  });
}

const posts = () => server.requests.filter((r) => r.method === 'POST' && r.url === '/api/reviews');

describe('review form validation', () => {
  it('needs a rating, bounds the comment, trims it and leaves an empty one out', () => {
    const p = pending(1);
    expect(validateReview(p, null, '')).toEqual({ ok: false, errors: { rating: 'required' } });
    expect(validateReview(p, 4, 'x'.repeat(REVIEW_COMMENT_MAX + 1))).toEqual({
      ok: false,
      errors: { comment: 'tooLong' },
    });
    expect(validateReview(p, 5, '   ')).toEqual({
      ok: true,
      body: { payment_id: p.payment_id, product_id: 'pack-1', rating: 5 },
    });
    expect(validateReview(p, 3, '  lovely  ')).toMatchObject({
      ok: true,
      body: { rating: 3, comment: 'lovely' },
    });
  });
});

describe('review prompt', () => {
  it('names the product bought (product_name), a photo shoot as much as a credit package', async () => {
    serveReviews([
      { ...pending(1, 'Creator'), product_id: 'headshots', product_name: 'Professional headshots' },
    ]);
    renderWithApp(<ReviewPrompt />, { i18n });
    const prompt = await screen.findByTestId('review-prompt');
    expect(within(prompt).getByText(/Rate Professional headshots/)).toBeTruthy();
    expect(within(prompt).queryByText(/Creator/)).toBeNull();
  });

  it('asks for a rating first, then sends stars and comment, and the reviewed purchase goes away', async () => {
    serveReviews([pending(1, 'Starter')]);
    renderWithApp(<ReviewPrompt />, { i18n });
    const prompt = await screen.findByTestId('review-prompt');
    expect(within(prompt).getByText(/Rate Starter/)).toBeTruthy();

    fireEvent.click(within(prompt).getByRole('button', { name: 'Send review' }));
    expect(await within(prompt).findByText('Choose a rating from 1 to 5 stars.')).toBeTruthy();
    expect(posts()).toHaveLength(0);

    const stars = within(prompt).getAllByRole('radio');
    expect(stars.map((s) => s.getAttribute('aria-label'))).toEqual([
      '1 star',
      '2 stars',
      '3 stars',
      '4 stars',
      '5 stars',
    ]);
    fireEvent.click(within(prompt).getByRole('radio', { name: '4 stars' }));
    expect((within(prompt).getByRole('radio', { name: '4 stars' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(prompt).getByLabelText('Comment (optional)'), {
      target: { value: ' Great value ' },
    });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Send review' }));

    expect(await screen.findByTestId('review-thanks')).toBeTruthy();
    expect(screen.queryByTestId('review-prompt')).toBeNull();
    expect(posts()).toHaveLength(1);
    expect(JSON.parse(posts()[0]!.body)).toEqual({
      payment_id: pending(1).payment_id,
      product_id: 'pack-1',
      rating: 4,
      comment: 'Great value',
    });
  });

  it('"Not now" hides it for this session only, and the next pending purchase shows instead', async () => {
    serveReviews([pending(1, 'Starter'), pending(2, 'Pro')]);
    renderWithApp(<ReviewPrompt />, { i18n });
    const first = await screen.findByTestId('review-prompt');
    expect(first.getAttribute('data-payment-id')).toBe(pending(1).payment_id);
    fireEvent.click(screen.getByTestId('review-dismiss'));
    await waitFor(() =>
      expect(screen.getByTestId('review-prompt').getAttribute('data-payment-id')).toBe(pending(2).payment_id),
    );
    fireEvent.click(screen.getByTestId('review-dismiss'));
    await waitFor(() => expect(screen.queryByTestId('review-prompt')).toBeNull());

    // Still dismissed on a remount within the same session…
    cleanup();
    renderWithApp(<ReviewPrompt />, { i18n });
    await waitFor(() => expect(server.requests.filter((r) => r.url === '/api/reviews').length).toBe(2));
    expect(screen.queryByTestId('review-prompt')).toBeNull();

    // …and back on the next visit (a new session).
    cleanup();
    sessionStorage.clear();
    renderWithApp(<ReviewPrompt />, { i18n });
    expect(await screen.findByTestId('review-prompt')).toBeTruthy();
  });

  it('shows the server error when sending fails (e.g. already reviewed)', async () => {
    serveReviews([pending(1)]);
    server.on(contracts.createReview, () =>
      answerError(409, 'CONFLICT', 'This purchase already has a review'),
    );
    renderWithApp(<ReviewPrompt />, { i18n });
    const prompt = await screen.findByTestId('review-prompt');
    fireEvent.click(within(prompt).getByRole('radio', { name: '5 stars' }));
    fireEvent.click(within(prompt).getByRole('button', { name: 'Send review' }));
    expect(await within(prompt).findByText('This purchase already has a review')).toBeTruthy();
  });
});
