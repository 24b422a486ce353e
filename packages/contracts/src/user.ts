import { z } from 'zod';
import { defineContract } from './contract.ts';

export const UserProfile = z
  .object({
    id: z.uuid(),
    email: z.string().nullable().describe('The sign-in email; null for phone-only accounts'),
    is_operator: z
      .boolean()
      .describe(
        'True for an operator of this server (an ADMIN_EMAILS account): the web shows set-up hints only to them',
      ),
    onboarded: z
      .boolean()
      .describe('Completed or skipped onboarding; false sends a signed-in person to /onboarding'),
  })
  .meta({ id: 'UserProfile' });
export type UserProfile = z.infer<typeof UserProfile>;

export const currentUserContract = defineContract({
  method: 'GET',
  path: '/api/user',
  summary: 'The signed-in user (from the bearer access token or session cookie)',
  tags: ['users'],
  response: UserProfile,
});

export const SecondFactorId = z.enum(['otp-email', 'otp-phone', 'totp', 'webauthn']);
export type SecondFactorId = z.infer<typeof SecondFactorId>;

export const SecondFactors = z
  .object({
    enabled: z
      .array(SecondFactorId)
      .describe('Second factors asked for at sign-in (any one of them completes it)'),
    available: z.array(SecondFactorId).describe('Second factors this server offers'),
    alreadySetup: z
      .array(SecondFactorId)
      .describe('Factors ready to use (a verified authenticator, an email)'),
    totpDevices: z.array(z.object({ name: z.string(), verified: z.boolean() })),
    passkeys: z
      .array(
        z.object({
          id: z
            .string()
            .describe('The credential id (base64url); remove it with POST /auth/webauthn/credential/remove'),
          name: z.string(),
          createdAt: z.string().describe('ISO 8601'),
          lastUsedAt: z.string().nullable().describe('ISO 8601; null when never used to sign in'),
        }),
      )
      .describe('Passkeys: a way to sign in, and the webauthn second factor'),
  })
  .meta({ id: 'SecondFactors' });
export type SecondFactors = z.infer<typeof SecondFactors>;

export const secondFactorsContract = defineContract({
  method: 'GET',
  path: '/api/user/second-factors',
  summary: "The signed-in user's second factors (account page)",
  tags: ['users'],
  response: SecondFactors,
});

export const enableSecondFactorContract = defineContract({
  method: 'PUT',
  path: '/api/user/second-factors/{factorId}',
  summary: 'Ask for this second factor at every sign-in (TOTP needs a verified authenticator first)',
  tags: ['users'],
  params: z.object({ factorId: SecondFactorId }),
  response: SecondFactors,
});

export const disableSecondFactorContract = defineContract({
  method: 'DELETE',
  path: '/api/user/second-factors/{factorId}',
  summary: 'Stop asking for this second factor at sign-in',
  tags: ['users'],
  params: z.object({ factorId: SecondFactorId }),
  response: SecondFactors,
});

export const revokeAllSessionsContract = defineContract({
  method: 'DELETE',
  path: '/api/user/sessions',
  summary: "Sign out of every device (revokes all of the user's sessions, this one included)",
  tags: ['users'],
  response: z.object({ revoked: z.number().int() }).meta({ id: 'RevokedSessions' }),
});
