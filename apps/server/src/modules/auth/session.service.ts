import { decodeProtectedHeader, jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/client.ts';
import type { AuthSessionRow } from '../../db/schema/index.ts';
import { randomToken, sha256Hex } from './auth.crypto.ts';
import type { Clock } from '../../clock.ts';
import * as repo from './session.repository.ts';
import { tokenTheftDetected, tryRefreshToken, unauthorised } from './session.errors.ts';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.ts';

/** Claim values a session carries in its access token (st-mfa, st-ev); kept small (front-token cookie). */
export type SessionClaims = Record<string, unknown>;

/** The access-token payload (SuperTokens v5 token shape, minus the refresh-token hashes). */
export interface AccessTokenPayload extends SessionClaims {
  sub: string;
  rsub: string;
  tId: string;
  sessionHandle: string;
  iat: number;
  exp: number;
  antiCsrfToken: string | null;
  iss: string;
}

/** A verified session, as product code and the FDI routes see it. */
export interface Session {
  handle: string;
  userId: string;
  recipeUserId: string;
  tenantId: string;
  payload: AccessTokenPayload;
}

export interface IssuedTokens {
  accessToken: string;
  /** Present when a refresh token was created or rotated. */
  refreshToken?: string;
  /** Milliseconds since the epoch. */
  accessTokenExpiry: number;
  refreshTokenExpiry?: number;
  antiCsrfToken: string | null;
  payload: AccessTokenPayload;
}

export interface SessionOptions {
  issuer: string;
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeMinutes: number;
  refreshTokenReuseGraceSeconds: number;
}

/**
 * How long a session row read for `verify` is trusted without asking the database again. Every
 * product request verifies its session, and that lookup was a database round trip per request; a
 * second of reuse removes it under load while a session revoked by another process still stops
 * working within a second (this process forgets its own revocations at once).
 */
export const SESSION_CACHE_TTL_MS = 1000;
/** Sessions remembered at most at once (a row is a few hundred bytes). */
const SESSION_CACHE_MAX = 10_000;
/**
 * How long an access token whose signature checked out is remembered. A signature cannot become
 * invalid, and a key stays accepted longer than any token it signed, so only expiry needs checking
 * again; skipping the RSA verification saved about 5 % of the gallery listing's CPU.
 */
const VERIFIED_TOKEN_TTL_MS = 60_000;

/**
 * Sessions: JWT access tokens signed with the rotating keys, opaque refresh tokens stored as sha256 and
 * rotated on every refresh. A spent refresh token presented again (outside the short grace window for a
 * lost response) is treated as theft: the whole session is revoked. A retry within the window retires the
 * successor it replaces, and presenting a retired successor is theft as well.
 */
export class SessionService {
  /** Session rows recently read by `verify`; concurrent misses for one handle share one query. */
  private readonly recent: LRUCache<string, AuthSessionRow>;
  /** Payloads of access tokens whose signature was verified, by token. */
  private readonly verifiedTokens: LRUCache<string, AccessTokenPayload>;

  constructor(
    private readonly db: Database,
    private readonly keys: SigningKeys,
    private readonly clock: Clock,
    private readonly options: SessionOptions,
  ) {
    this.verifiedTokens = new LRUCache<string, AccessTokenPayload>({
      max: SESSION_CACHE_MAX,
      ttl: VERIFIED_TOKEN_TTL_MS,
      perf: { now: () => this.clock.now() },
    });
    this.recent = new LRUCache<string, AuthSessionRow>({
      max: SESSION_CACHE_MAX,
      ttl: SESSION_CACHE_TTL_MS,
      // Expiry on the service's clock, so tests that move time move the cache too.
      perf: { now: () => this.clock.now() },
      fetchMethod: async (handle, _stale, { options }) => {
        const started = this.clock.now();
        const row = await repo.findSession(this.db, handle);
        // The second counts from when the row was read, not from when the answer arrived.
        options.ttl = Math.max(1, SESSION_CACHE_TTL_MS - (this.clock.now() - started));
        return row;
      },
    });
  }

  async create(input: {
    userId: string;
    recipeUserId: string;
    tenantId: string;
    claims: SessionClaims;
    withAntiCsrfToken: boolean;
  }): Promise<{ session: Session; tokens: IssuedTokens }> {
    const now = this.clock.now();
    const refreshToken = randomToken(48);
    const refreshTokenExpiry = now + this.options.refreshTokenLifetimeMinutes * 60_000;
    const row = await this.db.transaction(async (tx) => {
      const session = await repo.insertSession(tx, {
        userId: input.userId,
        recipeUserId: input.recipeUserId,
        tenantId: input.tenantId,
        claims: input.claims,
        antiCsrfToken: input.withAntiCsrfToken ? randomToken(24) : null,
        createdAt: new Date(now),
        expiresAt: new Date(refreshTokenExpiry),
      });
      await repo.insertRefreshToken(tx, {
        tokenHash: sha256Hex(refreshToken),
        sessionHandle: session.handle,
        createdAt: new Date(now),
        expiresAt: new Date(refreshTokenExpiry),
      });
      return session;
    });
    const tokens = await this.issueAccessToken(row);
    return {
      session: toSession(row, tokens.payload),
      tokens: { ...tokens, refreshToken, refreshTokenExpiry },
    };
  }

  /**
   * Verifies an access token: signature (current or a still-published rotated key), expiry, and that
   * the session was not revoked. Any failure is "try refresh token" (401), as the FDI requires.
   */
  async verify(accessToken: string): Promise<Session> {
    const payload = await this.verifiedPayload(accessToken);
    const row = await this.recent.fetch(payload.sessionHandle);
    if (!row || row.revokedAt || row.expiresAt.getTime() <= this.clock.now() || row.userId !== payload.sub) {
      throw tryRefreshToken();
    }
    return toSession(row, payload);
  }

  /** The token's payload once its signature, issuer and expiry check out (signature checked once). */
  private async verifiedPayload(accessToken: string): Promise<AccessTokenPayload> {
    const known = this.verifiedTokens.get(accessToken);
    if (known) {
      // jose's rule with no tolerance: expired once `exp` is not after the current second.
      if (known.exp > Math.floor(this.clock.now() / 1000)) return known;
      throw tryRefreshToken();
    }
    let payload: AccessTokenPayload;
    try {
      const { kid } = decodeProtectedHeader(accessToken);
      const key = kid ? await this.keys.verificationKey(kid) : undefined;
      if (!key) throw tryRefreshToken();
      const verified = await jwtVerify(accessToken, key, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.options.issuer,
        currentDate: new Date(this.clock.now()),
        clockTolerance: 0,
      });
      payload = verified.payload as unknown as AccessTokenPayload;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError || err instanceof SyntaxError) {
        throw tryRefreshToken();
      }
      throw err;
    }
    if (typeof payload.sessionHandle !== 'string' || typeof payload.sub !== 'string') throw tryRefreshToken();
    this.verifiedTokens.set(accessToken, payload);
    return payload;
  }

  /** Spends a refresh token and returns the session's next tokens. */
  async refresh(
    refreshToken: string,
    checkAntiCsrf: (sessionToken: string | null) => boolean = () => true,
  ): Promise<{ session: Session; tokens: IssuedTokens }> {
    const now = this.clock.now();
    const tokenHash = sha256Hex(refreshToken);
    const nextToken = randomToken(48);
    const nextHash = sha256Hex(nextToken);
    const nextExpiry = now + this.options.refreshTokenLifetimeMinutes * 60_000;

    const outcome = await this.db.transaction(async (tx) => {
      const token = await repo.lockRefreshToken(tx, tokenHash);
      if (!token) return { kind: 'unknown' as const };
      const session = await repo.findSession(tx, token.sessionHandle);
      if (
        !session ||
        session.revokedAt ||
        session.expiresAt.getTime() <= now ||
        token.expiresAt.getTime() <= now
      ) {
        return { kind: 'unknown' as const };
      }
      if (!checkAntiCsrf(session.antiCsrfToken)) return { kind: 'unknown' as const };
      if (token.rotatedAt) {
        // Spent. A retry of a refresh whose response got lost is allowed briefly, while the successor is unused.
        // A token retired with no successor is one such replaced successor: whoever presents it is not the
        // one holding the replacement, so that is theft too (a replay can never sign the owner out alone).
        const child = token.childHash ? await repo.findRefreshToken(tx, token.childHash) : undefined;
        const withinGrace =
          now - token.rotatedAt.getTime() <= this.options.refreshTokenReuseGraceSeconds * 1000;
        if (!child || child.rotatedAt || !withinGrace) {
          await repo.revokeSession(tx, session.handle, 'token-theft', new Date(now));
          return { kind: 'theft' as const, handle: session.handle };
        }
        await repo.retireRefreshToken(tx, child.tokenHash, new Date(now));
      }
      await repo.insertRefreshToken(tx, {
        tokenHash: nextHash,
        sessionHandle: session.handle,
        createdAt: new Date(now),
        expiresAt: new Date(nextExpiry),
      });
      await repo.markRefreshTokenRotated(tx, tokenHash, nextHash, token.rotatedAt ?? new Date(now));
      const updated = await repo.updateSession(tx, session.handle, { expiresAt: new Date(nextExpiry) });
      return { kind: 'ok' as const, session: updated! };
    });

    if (outcome.kind === 'theft') {
      this.recent.delete(outcome.handle);
      await this.revoked([outcome.handle]);
    }
    if (outcome.kind === 'unknown') throw unauthorised();
    if (outcome.kind === 'theft') throw tokenTheftDetected();
    this.recent.delete(outcome.session.handle);
    const tokens = await this.issueAccessToken(outcome.session);
    return {
      session: toSession(outcome.session, tokens.payload),
      tokens: { ...tokens, refreshToken: nextToken, refreshTokenExpiry: nextExpiry },
    };
  }

  /** Merges claim values into the session and returns a new access token (no new refresh token). */
  async updateClaims(
    handle: string,
    patch: SessionClaims,
  ): Promise<{ session: Session; tokens: IssuedTokens }> {
    const row = await repo.findSession(this.db, handle);
    if (!row || row.revokedAt) throw unauthorised();
    const updated = await repo.updateSession(this.db, handle, { claims: { ...row.claims, ...patch } });
    this.recent.delete(handle);
    const tokens = await this.issueAccessToken(updated!);
    return { session: toSession(updated!, tokens.payload), tokens };
  }

  private readonly revokedListeners: Array<(handles: string[]) => Promise<void>> = [];

  /** Called after sessions end (sign-out, sign-out everywhere, theft): what hangs off them ends too. */
  onRevoked(listener: (handles: string[]) => Promise<void>): void {
    this.revokedListeners.push(listener);
  }

  private async revoked(handles: string[]): Promise<void> {
    for (const listener of this.revokedListeners) await listener(handles);
  }

  async revoke(handle: string, reason = 'signout'): Promise<void> {
    await repo.revokeSession(this.db, handle, reason, new Date(this.clock.now()));
    this.recent.delete(handle);
    await this.revoked([handle]);
  }

  /** Signs the user out everywhere; returns the revoked handles. */
  async revokeAllForUser(userId: string, reason = 'revoke-all'): Promise<string[]> {
    const handles = await this.db.transaction((tx) =>
      repo.revokeUserSessions(tx, userId, reason, new Date(this.clock.now())),
    );
    for (const handle of handles) this.recent.delete(handle);
    await this.revoked(handles);
    return handles;
  }

  private async issueAccessToken(row: AuthSessionRow): Promise<IssuedTokens> {
    const now = this.clock.now();
    const iat = Math.floor(now / 1000);
    const exp = iat + this.options.accessTokenLifetimeSeconds;
    const payload: AccessTokenPayload = {
      ...row.claims,
      sub: row.userId,
      rsub: row.recipeUserId,
      tId: row.tenantId,
      sessionHandle: row.handle,
      iat,
      exp,
      antiCsrfToken: row.antiCsrfToken,
      iss: this.options.issuer,
    };
    const key = await this.keys.current();
    const accessToken = await new SignJWT({ ...payload })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'JWT', version: '5' })
      .sign(key.privateKey);
    return { accessToken, accessTokenExpiry: exp * 1000, antiCsrfToken: row.antiCsrfToken, payload };
  }
}

function toSession(row: AuthSessionRow, payload: AccessTokenPayload): Session {
  return {
    handle: row.handle,
    userId: row.userId,
    recipeUserId: row.recipeUserId,
    tenantId: row.tenantId,
    payload,
  };
}
