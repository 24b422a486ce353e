/**
 * Why a session could not be used. The FDI routes and the /api guard map these to the wire formats
 * (401 "try refresh token", 401 "unauthorised" with cleared tokens, 403 claim errors).
 */
export type SessionErrorKind =
  'TRY_REFRESH_TOKEN' | 'UNAUTHORISED' | 'TOKEN_THEFT_DETECTED' | 'INVALID_CLAIM';

export interface ClaimValidationError {
  id: string;
  reason: Record<string, unknown> | string;
}

export class SessionError extends Error {
  constructor(
    readonly kind: SessionErrorKind,
    message: string,
    readonly extra: {
      /** Clear the client's tokens (unauthorised on refresh, theft, revoked). */
      clearTokens?: boolean;
      claimValidationErrors?: ClaimValidationError[];
    } = {},
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

export const tryRefreshToken = () => new SessionError('TRY_REFRESH_TOKEN', 'try refresh token');
export const unauthorised = (clearTokens = true) =>
  new SessionError('UNAUTHORISED', 'unauthorised', { clearTokens });
export const tokenTheftDetected = () =>
  new SessionError('TOKEN_THEFT_DETECTED', 'token theft detected', { clearTokens: true });
export const invalidClaim = (claimValidationErrors: ClaimValidationError[]) =>
  new SessionError('INVALID_CLAIM', 'invalid claim', { claimValidationErrors });
