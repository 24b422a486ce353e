import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { randomToken, sha256Hex } from './auth.crypto.ts';
import { insertVerificationToken, takeVerificationToken } from './email-verification.repository.ts';

const VERIFY_LINK_LIFETIME_MS = 24 * 3_600_000;

/** Email-verification link tokens: only their hash is stored, and each one works once, for a day. */
export class EmailVerificationService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** A new token for a login method's email; the caller puts it in the link. */
  async issue(target: { loginMethodId: string; email: string; tenantId: string }): Promise<string> {
    const token = randomToken(32);
    await insertVerificationToken(this.db, {
      tokenHash: sha256Hex(token),
      ...target,
      expiresAt: new Date(this.clock.now() + VERIFY_LINK_LIFETIME_MS),
    });
    return token;
  }

  /** Uses a token up: its row when it was issued, unexpired and unused, otherwise undefined. */
  take(token: string) {
    return takeVerificationToken(this.db, sha256Hex(token), new Date(this.clock.now()));
  }
}
