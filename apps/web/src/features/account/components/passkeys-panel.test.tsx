import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { contracts, type SecondFactors } from '@lumina/contracts';
import { sessionStore } from '@/lib/auth';
import { renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answerError } from '@/testing/fake-api';
import { PasskeysPanel } from './passkeys-panel';
import { factorStates } from './two-step-panel';

const { server, i18n } = setupApiServer();
afterEach(cleanup);

const factors = (overrides: Partial<SecondFactors> = {}): SecondFactors => ({
  enabled: [],
  available: ['otp-email', 'totp', 'webauthn'],
  alreadySetup: ['otp-email'],
  totpDevices: [],
  passkeys: [],
  ...overrides,
});

describe('PasskeysPanel', () => {
  it('lists each passkey with its name, when it was added and when it was last used', async () => {
    sessionStore.setState({ status: 'signedIn', userId: 'u-passkeys' });
    server.answer(
      contracts.secondFactors,
      factors({
        alreadySetup: ['otp-email', 'webauthn'],
        passkeys: [
          { id: 'cred-1', name: 'Work laptop', createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: null },
          {
            id: 'cred-2',
            name: 'Phone',
            createdAt: '2026-11-02T10:00:00.000Z',
            lastUsedAt: '2026-11-20T10:00:00.000Z',
          },
        ],
      }),
    );
    renderWithApp(<PasskeysPanel email="ada@example.test" />, { i18n });
    const rows = await screen.findAllByTestId('passkey-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Work laptop');
    expect(rows[0]!.textContent).toContain('Added Nov 1, 2026');
    expect(rows[0]!.textContent).toContain('Not used yet');
    expect(rows[1]!.textContent).toContain('Last used Nov 20, 2026');
    expect((within(rows[1]!).getByRole('button', { name: 'Remove' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(screen.getByLabelText('Passkey name').getAttribute('maxlength')).toBe('100');
  });

  it('says when there are no passkeys yet, and when the list cannot be loaded', async () => {
    sessionStore.setState({ status: 'signedIn', userId: 'u-empty' });
    server.answer(contracts.secondFactors, factors());
    renderWithApp(<PasskeysPanel email={null} />, { i18n });
    expect((await screen.findByTestId('passkeys-empty')).textContent).toBe('You have no passkeys yet.');
    cleanup();
    sessionStore.setState({ status: 'signedIn', userId: 'u-broken' });
    server.on(contracts.secondFactors, () => answerError(500, 'INTERNAL', 'boom'));
    renderWithApp(<PasskeysPanel email={null} />, { i18n });
    expect(await screen.findByText('Could not load your passkeys. Please reload the page.')).toBeTruthy();
  });
});

describe('factorStates', () => {
  it('shows the passkey second factor beside the authenticator and the email code', () => {
    expect(
      factorStates({
        enabled: ['webauthn'],
        available: ['otp-email', 'totp', 'webauthn'],
        alreadySetup: ['webauthn'],
      }),
    ).toEqual([
      { factorId: 'totp', state: 'notSetUp' },
      { factorId: 'webauthn', state: 'on' },
      { factorId: 'otp-email', state: 'notSetUp' },
    ]);
  });
});
