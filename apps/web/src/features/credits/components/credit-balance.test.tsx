import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { contracts, CREDIT_BALANCE_POLL_MS } from '@lumina/contracts';
import { newQueryClient, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { sessionStore, setSignedIn, setSignedOut } from '@/lib/auth';
import { answer, answerError } from '@/testing/fake-api';
import {
  creditBalanceQueryKey,
  getCreditBalanceQueryOptions,
  useRefreshCreditBalance,
} from '../api/get-credit-balance';
import { CreditBalance } from './credit-balance';

const { server, i18n } = setupApiServer();
beforeEach(() => setSignedIn('u-1'));
afterEach(() => {
  cleanup();
  sessionStore.setState({ status: 'unknown', userId: null, pending: false });
});

describe('header credit balance', () => {
  it('shows the balance linking to /credits, and polls every 30 s', async () => {
    server.answer(contracts.creditBalance, { balance: 1250 });
    const queryClient = newQueryClient();
    renderWithApp(<CreditBalance />, { i18n, queryClient });
    const badge = await screen.findByTestId('credit-badge');
    expect(badge.getAttribute('href')).toBe('/credits');
    expect(screen.getByTestId('credit-balance').textContent).toBe('1,250');
    expect(badge.getAttribute('aria-label')).toBe('Your credit balance: 1250 credits');
    expect(getCreditBalanceQueryOptions().refetchInterval).toBe(CREDIT_BALANCE_POLL_MS);
    queryClient.setQueryData(creditBalanceQueryKey, { balance: 1 });
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('1'));
  });

  it('renders nothing when the server says there is no session (401)', async () => {
    server.on(contracts.creditBalance, () => answerError(401, 'UNAUTHORISED', 'Please sign in'));
    renderWithApp(
      <>
        <CreditBalance />
        <p>shell</p>
      </>,
      { i18n },
    );
    await screen.findByText('shell');
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/credits/balance')).toBe(true));
    expect(screen.queryByTestId('credit-badge')).toBeNull();
  });

  it('asks for nothing while the session is unknown, signed out or waiting for its second factor', async () => {
    server.answer(contracts.creditBalance, { balance: 7 });
    const asked = () => server.requests.filter((r) => r.url === '/api/credits/balance').length;
    sessionStore.setState({ status: 'unknown', userId: null, pending: false });
    renderWithApp(
      <>
        <CreditBalance />
        <p>shell</p>
      </>,
      { i18n },
    );
    await screen.findByText('shell');
    setSignedOut();
    setSignedIn('u-1', { complete: false });
    await new Promise((r) => setTimeout(r, 100));
    expect(asked()).toBe(0);
    expect(screen.queryByTestId('credit-badge')).toBeNull();
    // The second factor is done: the balance is asked for at once.
    setSignedIn('u-1', { claimsChanged: true, complete: true });
    expect((await screen.findByTestId('credit-balance')).textContent).toBe('7');
    expect(asked()).toBe(1);
  });

  it('takes the balance a spend reports at once, then refetches it (after a spend or a refund)', async () => {
    let served = 40;
    let delay = 0;
    server.on(contracts.creditBalance, async () => {
      await new Promise((r) => setTimeout(r, delay));
      return answer(contracts.creditBalance, { balance: served });
    });
    function Spend() {
      const refresh = useRefreshCreditBalance();
      return (
        <>
          <button type="button" onClick={() => refresh(36)}>
            spend
          </button>
          <button type="button" onClick={() => refresh()}>
            refund
          </button>
        </>
      );
    }
    renderWithApp(
      <>
        <CreditBalance />
        <Spend />
      </>,
      { i18n },
    );
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('40'));
    // The server's answer to the refetch differs (another tab spent meanwhile) and is slow to come.
    served = 35;
    delay = 300;
    fireEvent.click(screen.getByRole('button', { name: 'spend' }));
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('36'));
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('35'), {
      timeout: 3000,
    });
    served = 41;
    delay = 0;
    fireEvent.click(screen.getByRole('button', { name: 'refund' }));
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('41'));
  });
});
