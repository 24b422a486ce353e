import { loadSuperTokens } from '@/lib/auth';
import { useFactorMutation } from './second-factors';

/** Why adding a passkey did not work; the page shows a sentence for each. */
export class PasskeyError extends Error {
  constructor(readonly reason: 'ALREADY_REGISTERED' | 'CANCELLED' | 'NOT_SUPPORTED' | 'FAILED') {
    super(reason);
    this.name = 'PasskeyError';
  }
}

/**
 * Adds a named passkey for the signed-in person through the SDK (registration options, the browser's
 * passkey dialog, `POST /auth/webauthn/credential`). The list comes back with the second factors.
 */
export function useAddPasskey() {
  return useFactorMutation(async ({ name, email }: { name: string; email: string | null }) => {
    const result = await (await loadSuperTokens()).addPasskey(name, email);
    if (result !== 'OK') throw new PasskeyError(result);
  });
}

/** Removes one of the person's passkeys (`POST /auth/webauthn/credential/remove`). */
export function useRemovePasskey() {
  return useFactorMutation(async (id: string) => {
    if (!(await (await loadSuperTokens()).removePasskey(id))) throw new Error('remove failed');
  });
}
