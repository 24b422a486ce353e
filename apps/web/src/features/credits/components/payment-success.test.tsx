import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { renderWithApp } from '@/testing/app-harness';
import { contracts } from '@lumina/contracts';
import { setupApiServer } from '@/testing/api-server';
import { sessionStore, setSignedIn } from '@/lib/auth';
import { answer, answerError } from '@/testing/fake-api';
import { CreditBalance } from './credit-balance';
import { PaymentSuccess } from './payment-success';

const { server, i18n } = setupApiServer();
beforeEach(() => setSignedIn('u-1'));
afterEach(() => {
  cleanup();
  sessionStore.setState({ status: 'unknown', userId: null, pending: false });
});

const processCalls = () => server.requests.filter((r) => r.url === '/api/process_payment');

describe('payment success page', () => {
  it('confirms the checkout once under StrictMode and puts the new balance in the header at once', async () => {
    let balance = 100;
    // The confirmation answers only once the header shows the old balance, so the two requests end in
    // this order however slow the machine (a late balance answer must not be what the header keeps).
    let release!: () => void;
    const headerSeenOld = new Promise<void>((r) => (release = r));
    server.on(contracts.creditBalance, () => answer(contracts.creditBalance, { balance }));
    server.on(contracts.processPayment, async () => {
      await headerSeenOld;
      balance = 600;
      return answer(contracts.processPayment, { status: 'paid', credits_added: 500, balance: 600 });
    });
    renderWithApp(
      <StrictMode>
        <CreditBalance />
        <PaymentSuccess sessionId="cs_test_123" />
      </StrictMode>,
      { i18n },
    );
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('100'));
    release();
    expect(await screen.findByTestId('credits-added')).toHaveProperty(
      'textContent',
      '500 credits were added to your account.',
    );
    expect(screen.getByTestId('new-balance').textContent).toBe('600');
    expect(screen.getByTestId('credit-balance').textContent).toBe('600');
    expect(processCalls()).toHaveLength(1);
    expect(JSON.parse(processCalls()[0]!.body)).toEqual({ session_id: 'cs_test_123' });
    // Nothing asks again later (no refetch on focus, no retry).
    await new Promise((r) => setTimeout(r, 100));
    expect(processCalls()).toHaveLength(1);
  });

  it('says so when the payment was already credited, and shows a server error as given', async () => {
    server.on(contracts.creditBalance, () => answer(contracts.creditBalance, { balance: 600 }));
    server.on(contracts.processPayment, () =>
      answer(contracts.processPayment, { status: 'paid', credits_added: 0, balance: 600 }),
    );
    renderWithApp(<PaymentSuccess sessionId="cs_again" />, { i18n });
    expect((await screen.findByTestId('credits-added')).textContent).toBe(
      'This payment has already been added to your account.',
    );
    cleanup();

    server.on(contracts.processPayment, () => answerError(404, 'NOT_FOUND', 'No such checkout session'));
    renderWithApp(<PaymentSuccess sessionId="cs_unknown" />, { i18n });
    expect(await screen.findByText('No such checkout session')).toBeTruthy();
  });

  it('asks for nothing without a session id', async () => {
    renderWithApp(<PaymentSuccess sessionId="" />, { i18n });
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('needs a checkout session') as string,
    );
    expect(processCalls()).toHaveLength(0);
  });
});
