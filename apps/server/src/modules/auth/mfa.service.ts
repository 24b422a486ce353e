import { Secret, TOTP } from 'otpauth';
import type { Database } from '../../db/client.ts';
import type { FdiUser } from '../users/users.mapper.ts';
import type { MfaClaim } from './claims.ts';
import type { Clock } from '../../clock.ts';
import * as repo from './mfa.repository.ts';
import { factorsThatCanComplete, requirementsMet, type FactorProgress } from './mfa-requirements.ts';

export const SECONDARY_FACTORS = ['otp-email', 'otp-phone', 'totp', 'webauthn'] as const;
export type SecondaryFactor = (typeof SECONDARY_FACTORS)[number];

const TOTP_PERIOD = 30;
const TOTP_SKEW = 1;
const TOTP_DIGITS = 6;
export const TOTP_MAX_ATTEMPTS = 5;
const TOTP_COOLDOWN_MS = 900_000;
const ISSUER = 'Lumina';
/**
 * How recently this session must have entered a TOTP code to turn TOTP off or remove a device (the window
 * SuperTokens' step-up examples use): a session left open, or one opened before the authenticator
 * existed, must show the authenticator again before it can take it away.
 */
export const TOTP_STEP_UP_MS = 5 * 60_000;

export type TotpCheck =
  | { status: 'OK'; deviceName: string; wasAlreadyVerified: boolean }
  | { status: 'UNKNOWN_DEVICE_ERROR' }
  | { status: 'INVALID_TOTP_ERROR'; currentNumberOfFailedAttempts: number; maxNumberOfFailedAttempts: number }
  | { status: 'LIMIT_REACHED_ERROR'; retryAfterMs: number };

/**
 * Second factors: which ones a user turned on (any one completes a sign-in, SuperTokens' `oneOf`),
 * what is set up, and TOTP devices (otpauth; SHA-1, 6 digits, 30 s, skew 1, 5 failures then 15 min).
 */
export class MfaService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly options: { phoneEnabled: boolean },
  ) {}

  /** Factors the user has set up (otp-email needs a passwordless email, totp a verified device, webauthn a passkey). */
  async alreadySetup(user: FdiUser): Promise<SecondaryFactor[]> {
    const setup: SecondaryFactor[] = [];
    if (user.loginMethods.some((m) => m.recipeId === 'passwordless' && m.email)) setup.push('otp-email');
    if (user.loginMethods.some((m) => m.recipeId === 'passwordless' && m.phoneNumber))
      setup.push('otp-phone');
    if ((await repo.totpDevicesOf(this.db, user.id)).some((d) => d.verified)) setup.push('totp');
    // The user object carries its passkeys' ids (users.service reads them with the login methods).
    if (user.webauthn.credentialIds.length > 0) setup.push('webauthn');
    return setup;
  }

  /** The second factors the user turned on. */
  async required(userId: string): Promise<SecondaryFactor[]> {
    return ((await repo.findUserMfa(this.db, userId))?.requiredFactors ?? []) as SecondaryFactor[];
  }

  /**
   * The st-mfa claim for a sign-in's progress: satisfied when nothing is required or one required
   * factor other than the sign-in itself is done (mfa-requirements.ts).
   */
  async claim(userId: string, progress: FactorProgress): Promise<MfaClaim> {
    const required = await this.required(userId);
    return { c: progress.completed, v: requirementsMet(required, progress, this.availableFactors) };
  }

  /** The factors that can still complete this sign-in (empty once it is complete). */
  async pending(userId: string, progress: FactorProgress): Promise<SecondaryFactor[]> {
    const required = await this.required(userId);
    return requirementsMet(required, progress, this.availableFactors)
      ? []
      : factorsThatCanComplete(required, progress.first, this.availableFactors);
  }

  async setRequired(userId: string, factor: SecondaryFactor, on: boolean): Promise<SecondaryFactor[]> {
    return this.db.transaction(async (tx) => {
      const row = await repo.lockUserMfa(tx, userId);
      const current = row.requiredFactors.filter((f) => f !== factor);
      const next = on ? [...current, factor] : current;
      await repo.updateUserMfa(tx, userId, { requiredFactors: next });
      return next as SecondaryFactor[];
    });
  }

  get availableFactors(): SecondaryFactor[] {
    return this.options.phoneEnabled
      ? ['otp-email', 'otp-phone', 'totp', 'webauthn']
      : ['otp-email', 'totp', 'webauthn'];
  }

  async listDevices(userId: string) {
    return (await repo.totpDevicesOf(this.db, userId)).map((d) => ({
      name: d.name,
      period: TOTP_PERIOD,
      skew: TOTP_SKEW,
      verified: d.verified,
    }));
  }

  /** A new, unverified device; `undefined` when the name is taken. */
  async createDevice(userId: string, label: string, deviceName?: string) {
    const existing = await repo.totpDevicesOf(this.db, userId);
    let name = deviceName;
    if (!name) {
      let n = existing.length + 1;
      while (existing.some((d) => d.name === `TOTP Device ${n}`)) n++;
      name = `TOTP Device ${n}`;
    }
    const secret = new Secret({ size: 20 });
    const row = await repo.insertTotpDevice(this.db, {
      userId,
      name,
      secret: secret.base32,
      verified: false,
      createdAt: new Date(this.clock.now()),
    });
    if (!row) return undefined;
    const totp = new TOTP({
      issuer: ISSUER,
      label,
      secret,
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD,
      algorithm: 'SHA1',
    });
    return { deviceName: name, secret: secret.base32, qrCodeString: totp.toString() };
  }

  async removeDevice(userId: string, name: string): Promise<{ existed: boolean; wasVerified: boolean }> {
    const removed = await repo.deleteTotpDevice(this.db, userId, name);
    if (removed?.verified && !(await repo.totpDevicesOf(this.db, userId)).some((d) => d.verified)) {
      await this.setRequired(userId, 'totp', false);
    }
    return { existed: !!removed, wasVerified: removed?.verified ?? false };
  }

  /**
   * True when a TOTP code entered in this session at `completedAtSeconds` (`st-mfa.c.totp`) may take
   * TOTP away: entered within the step-up window, and after the device named (or, with no name, every
   * verified device) existed, so a session from before the authenticator never counts.
   */
  async totpFreshlyEntered(userId: string, completedAtSeconds: number | undefined, deviceName?: string) {
    if (completedAtSeconds === undefined) return false;
    const completedAtMs = completedAtSeconds * 1000;
    if (this.clock.now() - completedAtMs > TOTP_STEP_UP_MS) return false;
    const devices = (await repo.totpDevicesOf(this.db, userId)).filter((d) =>
      deviceName ? d.name === deviceName : d.verified,
    );
    // `c` holds whole seconds, so the device's creation time is compared at that precision.
    return devices.every((d) => Math.floor(d.createdAt.getTime() / 1000) <= completedAtSeconds);
  }

  async deviceVerified(userId: string, name: string): Promise<boolean | undefined> {
    return (await repo.totpDevicesOf(this.db, userId)).find((d) => d.name === name)?.verified;
  }

  /**
   * Checks a TOTP code against one device (`deviceName`) or every verified device, counting failures
   * per user. A device's first good code verifies it and turns TOTP on as a second factor.
   */
  async checkTotp(userId: string, code: string, deviceName?: string): Promise<TotpCheck> {
    const now = this.clock.now();
    return this.db.transaction(async (tx): Promise<TotpCheck> => {
      const state = await repo.lockUserMfa(tx, userId);
      if (state.totpLockedUntil && state.totpLockedUntil.getTime() > now) {
        return { status: 'LIMIT_REACHED_ERROR', retryAfterMs: state.totpLockedUntil.getTime() - now };
      }
      const devices = (await repo.totpDevicesOf(tx, userId)).filter((d) =>
        deviceName ? d.name === deviceName : d.verified,
      );
      if (deviceName && devices.length === 0) return { status: 'UNKNOWN_DEVICE_ERROR' };
      const currentStep = Math.floor(now / 1000 / TOTP_PERIOD);
      for (const device of devices) {
        const delta = /^\d{6}$/.test(code)
          ? TOTP.validate({
              token: code,
              secret: Secret.fromBase32(device.secret),
              digits: TOTP_DIGITS,
              period: TOTP_PERIOD,
              timestamp: now,
              window: TOTP_SKEW,
            })
          : null;
        if (delta === null) continue;
        const step = currentStep + delta;
        if (device.lastUsedStep !== null && step <= device.lastUsedStep) continue; // replayed code
        await repo.updateTotpDevice(tx, device.id, { lastUsedStep: step, verified: true });
        await repo.updateUserMfa(tx, userId, {
          totpFailedAttempts: 0,
          totpLockedUntil: null,
          ...(device.verified || state.requiredFactors.includes('totp')
            ? {}
            : { requiredFactors: [...state.requiredFactors, 'totp'] }),
        });
        return { status: 'OK', deviceName: device.name, wasAlreadyVerified: device.verified };
      }
      const failed = state.totpFailedAttempts + 1;
      if (failed >= TOTP_MAX_ATTEMPTS) {
        await repo.updateUserMfa(tx, userId, {
          totpFailedAttempts: 0,
          totpLockedUntil: new Date(now + TOTP_COOLDOWN_MS),
        });
        return { status: 'LIMIT_REACHED_ERROR', retryAfterMs: TOTP_COOLDOWN_MS };
      }
      await repo.updateUserMfa(tx, userId, { totpFailedAttempts: failed });
      return {
        status: 'INVALID_TOTP_ERROR',
        currentNumberOfFailedAttempts: failed,
        maxNumberOfFailedAttempts: TOTP_MAX_ATTEMPTS,
      };
    });
  }
}
