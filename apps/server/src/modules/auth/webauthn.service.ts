import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { Clock } from '../../clock.ts';
import type { AuthConfig } from '../../config.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import type { AuthLoginMethodRow, AuthWebauthnCredentialRow } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import * as users from '../users/users.repository.ts';
import { randomToken, sha256Hex } from './auth.crypto.ts';
import * as repo from './webauthn.repository.ts';

/** How long generated options (and their challenge) stay usable: WebAuthn's recommended 5 minutes. */
export const WEBAUTHN_TIMEOUT_MS = 300_000;
/** How long an account-recovery link works. */
export const RECOVER_TOKEN_LIFETIME_MS = 3_600_000;
/** SuperTokens' defaults: discoverable credentials, user verification preferred, attestation none. */
const USER_VERIFICATION = 'preferred' as const;
/** EdDSA, ES256, RS256: what SuperTokens offers. */
const ALGORITHMS = [-8, -7, -257];
const MAX_NAME_LENGTH = 100;

export type RegisterOptionsResult =
  { status: 'OK'; options: Record<string, unknown> } | { status: 'RECOVER_ACCOUNT_TOKEN_INVALID_ERROR' };

/** A registration checked against its options: the new credential, or the FDI status that refuses it. */
type CheckedRegistration =
  | {
      status: 'OK';
      options: {
        tenantId: string;
        email: string | null;
        userHandle: string | null;
        recoverTokenHash: string | null;
        sessionHandle: string | null;
      };
      credential: { id: string; publicKey: string; counter: number; transports: string[]; rpId: string };
    }
  | { status: 'OPTIONS_NOT_FOUND_ERROR' | 'INVALID_OPTIONS_ERROR' | 'INVALID_CREDENTIALS_ERROR' };

export type PasskeySignIn =
  | { status: 'OK'; credential: AuthWebauthnCredentialRow; loginMethod: AuthLoginMethodRow }
  | { status: 'INVALID_CREDENTIALS_ERROR' };

export interface PasskeyView {
  webauthnCredentialId: string;
  relyingPartyId: string;
  recipeUserId: string;
  name: string;
  /** Milliseconds since the epoch, as the FDI's `createdAt`. */
  createdAt: number;
  lastUsedAt: number | null;
}

/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: options with a server-kept, single-use, expiring
 * challenge; registration and assertion verified against the configured relying party and origins;
 * the signature counter kept and checked; recovery links by email.
 */
export class WebauthnService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly settings: AuthConfig['webauthn'],
  ) {}

  /**
   * Registration options for a new account (`email`), a signed-in person adding a passkey (`forSession`:
   * their passkeys excluded, and only that session may spend the options) or account recovery
   * (`recoverToken`).
   */
  async registerOptions(
    tenantId: string,
    input: { email?: string; recoverToken?: string; forSession?: { userId: string; handle: string } },
  ): Promise<RegisterOptionsResult> {
    const now = this.clock.now();
    let email = input.email ?? null;
    let userHandle: string = randomUUID();
    let exclude: AuthWebauthnCredentialRow[] = [];
    let recoverTokenHash: string | null = null;
    if (input.recoverToken !== undefined) {
      recoverTokenHash = sha256Hex(input.recoverToken);
      const token = await repo.findRecoverToken(this.db, recoverTokenHash, new Date(now));
      if (!token || token.tenantId !== tenantId) return { status: 'RECOVER_ACCOUNT_TOKEN_INVALID_ERROR' };
      const method = await users.findLoginMethod(this.db, token.loginMethodId);
      if (!method) return { status: 'RECOVER_ACCOUNT_TOKEN_INVALID_ERROR' };
      email = token.email;
      userHandle = method.id;
      exclude = await repo.credentialsOf(this.db, method.userId);
    } else if (input.forSession) {
      const { userId } = input.forSession;
      userHandle = (await repo.findWebauthnMethodOfUser(this.db, userId))?.id ?? userId;
      exclude = await repo.credentialsOf(this.db, userId);
    }
    const generated = await generateRegistrationOptions({
      rpName: this.settings.rpName,
      rpID: this.settings.rpId,
      userName: email ?? userHandle,
      userDisplayName: email ?? '',
      userID: isoUint8Array.fromUTF8String(userHandle),
      timeout: WEBAUTHN_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: exclude.map((c) => ({
        id: c.id,
        transports: c.transports as AuthenticatorTransportFuture[],
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: USER_VERIFICATION },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    const row = await this.storeOptions(now, {
      tenantId,
      kind: 'register',
      challenge: generated.challenge,
      userHandle,
      email,
      recoverTokenHash,
      sessionHandle: input.recoverToken === undefined ? (input.forSession?.handle ?? null) : null,
    });
    return {
      status: 'OK',
      options: {
        webauthnGeneratedOptionsId: row.id,
        createdAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        ...generated,
        rp: { id: this.settings.rpId, name: this.settings.rpName },
        excludeCredentials: generated.excludeCredentials ?? [],
        attestation: 'none',
        authenticatorSelection: {
          requireResidentKey: true,
          residentKey: 'required',
          userVerification: USER_VERIFICATION,
        },
      },
    };
  }

  /** Keeps a challenge for one ceremony (single use, expiring with the options); drops expired ones. */
  private async storeOptions(
    now: number,
    fields: Pick<
      Parameters<typeof repo.insertOptions>[1],
      'tenantId' | 'kind' | 'challenge' | 'userHandle' | 'email' | 'recoverTokenHash' | 'sessionHandle'
    >,
  ) {
    await repo.deleteExpiredOptions(this.db, new Date(now));
    return repo.insertOptions(this.db, {
      ...fields,
      rpId: this.settings.rpId,
      origin: this.settings.origins.join(' '),
      userVerification: USER_VERIFICATION,
      createdAt: new Date(now),
      expiresAt: new Date(now + WEBAUTHN_TIMEOUT_MS),
    });
  }

  /** Sign-in options: a challenge for any discoverable credential of this relying party. */
  async signInOptions(tenantId: string) {
    const now = this.clock.now();
    const generated = await generateAuthenticationOptions({
      rpID: this.settings.rpId,
      timeout: WEBAUTHN_TIMEOUT_MS,
      userVerification: USER_VERIFICATION,
    });
    const row = await this.storeOptions(now, { tenantId, kind: 'signin', challenge: generated.challenge });
    return {
      status: 'OK' as const,
      webauthnGeneratedOptionsId: row.id,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      rpId: this.settings.rpId,
      challenge: generated.challenge,
      timeout: WEBAUTHN_TIMEOUT_MS,
      userVerification: USER_VERIFICATION,
    };
  }

  /**
   * Spends registration options and checks the authenticator's answer against them. `sessionHandle` is
   * the session spending them (null signed out): options serve only the session that asked for them, and
   * options asked for signed out serve no session.
   */
  private async checkRegistration(
    tenantId: string,
    optionsId: string,
    response: unknown,
    sessionHandle: string | null,
  ): Promise<CheckedRegistration> {
    const options = isUuid(optionsId)
      ? await repo.takeOptions(this.db, optionsId, new Date(this.clock.now()))
      : undefined;
    if (!options) return { status: 'OPTIONS_NOT_FOUND_ERROR' };
    if (
      options.kind !== 'register' ||
      options.tenantId !== tenantId ||
      options.sessionHandle !== sessionHandle
    )
      return { status: 'INVALID_OPTIONS_ERROR' };
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: options.challenge,
        expectedOrigin: options.origin.split(' '),
        expectedRPID: options.rpId,
        requireUserVerification: false,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch {
      return { status: 'INVALID_CREDENTIALS_ERROR' };
    }
    if (!verified.verified) return { status: 'INVALID_CREDENTIALS_ERROR' };
    const { credential } = verified.registrationInfo;
    return {
      status: 'OK',
      options,
      credential: {
        id: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        rpId: options.rpId,
      },
    };
  }

  private async addCredential(
    tx: DbOrTx,
    method: AuthLoginMethodRow,
    credential: Extract<CheckedRegistration, { status: 'OK' }>['credential'],
    name: string | undefined,
  ) {
    const count = (await repo.credentialsOf(tx, method.userId)).length;
    return repo.insertCredential(tx, {
      ...credential,
      userId: method.userId,
      loginMethodId: method.id,
      name: cleanName(name) ?? `Passkey ${count + 1}`,
      createdAt: new Date(this.clock.now()),
    });
  }

  /**
   * A new account signed up with a passkey. An address that already belongs to anyone (any sign-in
   * method, verified or not) is refused: a passkey proves nothing about the inbox, so it never joins
   * or takes over that account.
   */
  async signUp(tenantId: string, optionsId: string, response: unknown) {
    // Options made while signed in (they carry that person) never found a new account.
    const checked = await this.checkRegistration(tenantId, optionsId, response, null);
    if (checked.status !== 'OK') return checked;
    const { options, credential } = checked;
    if (!options.email || options.recoverTokenHash) return { status: 'INVALID_OPTIONS_ERROR' as const };
    const email = options.email;
    try {
      return await this.signUpTransaction(tenantId, email, options.userHandle, credential);
    } catch (err) {
      // Two sign-ups with one address (or one set of options) at once: the loser hears what it would
      // have heard a moment later.
      if (isUniqueViolation(err)) return { status: 'EMAIL_ALREADY_EXISTS_ERROR' as const };
      throw err;
    }
  }

  private signUpTransaction(
    tenantId: string,
    email: string,
    userHandle: string | null | undefined,
    credential: Extract<CheckedRegistration, { status: 'OK' }>['credential'],
  ) {
    return this.db.transaction(async (tx) => {
      if ((await repo.findMethodWithEmail(tx, email)) || (await users.findUserByEmail(tx, email))) {
        return { status: 'EMAIL_ALREADY_EXISTS_ERROR' as const };
      }
      const id = userHandle && isUuid(userHandle) ? userHandle : randomUUID();
      const user = await users.insertUser(tx, { id, email: null });
      const method = await users.insertLoginMethod(tx, {
        id: user.id,
        userId: user.id,
        recipeId: 'webauthn',
        email,
        verified: false,
        tenantIds: [tenantId],
        createdAt: new Date(this.clock.now()),
      });
      const added = await this.addCredential(tx, method, credential, undefined);
      if (!added) return { status: 'INVALID_CREDENTIALS_ERROR' as const };
      return { status: 'OK' as const, userId: user.id, loginMethod: method, credentialId: added.id };
    });
  }

  /**
   * A passkey for a person already signed in (the account page, or setting the factor up in the MFA
   * step). Their passkeys hang off one `webauthn` login method, created on the first one with their
   * address when no other passkey account holds it.
   */
  async addForUser(
    session: { userId: string; handle: string },
    tenantId: string,
    optionsId: string,
    response: unknown,
    name: string | undefined,
  ) {
    const { userId } = session;
    const checked = await this.checkRegistration(tenantId, optionsId, response, session.handle);
    if (checked.status !== 'OK') return checked;
    if (checked.options.recoverTokenHash) return { status: 'INVALID_OPTIONS_ERROR' as const };
    return this.db.transaction(async (tx) => {
      let method = await repo.findWebauthnMethodOfUser(tx, userId);
      if (!method) {
        const methods = await users.loginMethodsOf(tx, userId);
        const verified = methods.find((m) => m.email && m.verified);
        const candidate = verified?.email ?? null;
        const free = candidate && !(await repo.findWebauthnMethodByEmail(tx, candidate)) ? candidate : null;
        method = await users.insertLoginMethod(tx, {
          userId,
          recipeId: 'webauthn',
          email: free,
          verified: free !== null,
          tenantIds: [tenantId],
          createdAt: new Date(this.clock.now()),
        });
      }
      const added = await this.addCredential(tx, method, checked.credential, name);
      if (!added) return { status: 'INVALID_CREDENTIALS_ERROR' as const };
      return { status: 'OK' as const, loginMethod: method, credentialId: added.id };
    });
  }

  /** Checks an assertion: the options (single use), the credential, its signature and its counter. */
  async signIn(tenantId: string, optionsId: string, response: unknown): Promise<PasskeySignIn> {
    const refused = { status: 'INVALID_CREDENTIALS_ERROR' as const };
    const now = new Date(this.clock.now());
    const options = isUuid(optionsId) ? await repo.takeOptions(this.db, optionsId, now) : undefined;
    if (!options || options.kind !== 'signin' || options.tenantId !== tenantId) return refused;
    const credentialId = (response as { id?: unknown } | null)?.id;
    if (typeof credentialId !== 'string' || credentialId.length === 0) return refused;
    const stored = await repo.findCredential(this.db, credentialId);
    if (!stored) return refused;
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: options.challenge,
        expectedOrigin: options.origin.split(' '),
        expectedRPID: options.rpId,
        credential: {
          id: stored.id,
          publicKey: isoBase64URL.toBuffer(stored.publicKey),
          counter: stored.counter,
          transports: stored.transports as AuthenticatorTransportFuture[],
        },
        requireUserVerification: false,
      });
    } catch {
      return refused;
    }
    if (!verified.verified) return refused;
    if (
      !(await repo.recordUse(this.db, stored.id, stored.counter, verified.authenticationInfo.newCounter, now))
    ) {
      return refused;
    }
    const loginMethod = await users.findLoginMethod(this.db, stored.loginMethodId);
    if (!loginMethod) return refused;
    if (!loginMethod.tenantIds.includes(tenantId)) {
      await users.addTenantToLoginMethod(this.db, loginMethod.id, tenantId);
    }
    return { status: 'OK', credential: stored, loginMethod };
  }

  async list(userId: string): Promise<PasskeyView[]> {
    return (await repo.credentialsOf(this.db, userId)).map((c) => ({
      webauthnCredentialId: c.id,
      relyingPartyId: c.rpId,
      recipeUserId: c.loginMethodId,
      name: c.name,
      createdAt: c.createdAt.getTime(),
      lastUsedAt: c.lastUsedAt?.getTime() ?? null,
    }));
  }

  /** Removes one of the person's passkeys; false when they hold none by that id. */
  async remove(userId: string, credentialId: string): Promise<{ removed: boolean; remaining: number }> {
    const removed = await repo.deleteCredential(this.db, userId, credentialId);
    return { removed: !!removed, remaining: (await repo.credentialsOf(this.db, userId)).length };
  }

  async rename(userId: string, credentialId: string, name: string): Promise<boolean> {
    const clean = cleanName(name);
    if (!clean) return false;
    return !!(await repo.renameCredential(this.db, userId, credentialId, clean));
  }

  async hasPasskey(userId: string): Promise<boolean> {
    return (await repo.credentialsOf(this.db, userId)).length > 0;
  }

  /** The address of the person's passkey login method (the MFA page registers with it). */
  async emailOf(userId: string): Promise<string | undefined> {
    return (await repo.findWebauthnMethodOfUser(this.db, userId))?.email ?? undefined;
  }

  /** Whether a passkey account with this address signs in to the tenant. */
  async emailExists(tenantId: string, email: string): Promise<boolean> {
    const method = await repo.findWebauthnMethodByEmail(this.db, email);
    return !!method && method.tenantIds.includes(tenantId);
  }

  /** A recovery token for the passkey account with this address, or undefined when there is none. */
  async issueRecoverToken(tenantId: string, email: string) {
    const method = await repo.findWebauthnMethodByEmail(this.db, email);
    if (!method?.email || !method.tenantIds.includes(tenantId)) return undefined;
    const token = randomToken(32);
    await repo.insertRecoverToken(this.db, {
      tokenHash: sha256Hex(token),
      loginMethodId: method.id,
      email: method.email,
      tenantId,
      expiresAt: new Date(this.clock.now() + RECOVER_TOKEN_LIFETIME_MS),
    });
    return { token, email: method.email, userId: method.userId };
  }

  /** The person a live recovery token of this tenant recovers, or undefined. */
  async recoverTokenUser(tenantId: string, token: string): Promise<string | undefined> {
    const found = await repo.findRecoverToken(this.db, sha256Hex(token), new Date(this.clock.now()));
    if (!found || found.tenantId !== tenantId) return undefined;
    return (await users.findLoginMethod(this.db, found.loginMethodId))?.userId;
  }

  /**
   * Account recovery: a new passkey registered with options made for the emailed token. The token is
   * spent; opening the link proved the inbox, so the passkey account's address counts as verified.
   * An account whose address was never proven may have been signed up by someone else with the owner's
   * address: its earlier passkeys are dropped (`wasUnproven`: the caller ends its sessions), so the
   * recovered account is the inbox owner's alone.
   */
  async recover(tenantId: string, token: string, optionsId: string, response: unknown) {
    const tokenHash = sha256Hex(token);
    const now = new Date(this.clock.now());
    const live = await repo.findRecoverToken(this.db, tokenHash, now);
    if (!live || live.tenantId !== tenantId) {
      return { status: 'RECOVER_ACCOUNT_TOKEN_INVALID_ERROR' as const };
    }
    const checked = await this.checkRegistration(tenantId, optionsId, response, null);
    if (checked.status !== 'OK') return checked;
    if (checked.options.recoverTokenHash !== tokenHash) return { status: 'INVALID_OPTIONS_ERROR' as const };
    return this.db.transaction(async (tx) => {
      const spent = await repo.takeRecoverToken(tx, tokenHash, now);
      if (!spent) return { status: 'RECOVER_ACCOUNT_TOKEN_INVALID_ERROR' as const };
      const method = await users.findLoginMethod(tx, spent.loginMethodId);
      if (!method) return { status: 'RECOVER_ACCOUNT_TOKEN_INVALID_ERROR' as const };
      if (!method.verified) await repo.deleteCredentialsOfMethod(tx, method.id);
      const added = await this.addCredential(tx, method, checked.credential, undefined);
      if (!added) return { status: 'INVALID_CREDENTIALS_ERROR' as const };
      return {
        status: 'OK' as const,
        loginMethod: method,
        email: spent.email,
        wasUnproven: !method.verified,
      };
    });
  }
}

function cleanName(name: string | undefined): string | undefined {
  const trimmed = name
    ?.replace(/[\p{Cc}\p{Cs}]/gu, ' ')
    .trim()
    .slice(0, MAX_NAME_LENGTH);
  return trimmed ? trimmed : undefined;
}

const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
