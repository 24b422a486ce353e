import { useMutation } from '@tanstack/react-query';
import { revokeAllSessionsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { setSignedOut, signOut } from '@/lib/auth';

/**
 * Signs out of every device (`DELETE /api/user/sessions` revokes all of the user's sessions, this one
 * included), then clears this browser's tokens through the SDK.
 */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: async () => {
      const result = await api.call(revokeAllSessionsContract);
      // This session is gone on the server too; the SDK's sign-out still clears the local tokens.
      await signOut().catch(setSignedOut);
      return result;
    },
  });
}
