import { E164 } from '@lumina/contracts';
import type { Mailer } from '../../adapters/mail/mailer.ts';
import { signInEmail } from '../../adapters/mail/sign-in-email.ts';
import type { SmsSender } from '../../adapters/sms/sms.ts';
import type { AuthConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';
import { hmacHex, randomDigits, randomToken, safeEqual, sha256Base64Url, sha256Hex } from './auth.crypto.ts';
import type { Clock } from '../../clock.ts';
import * as repo from './passwordless.repository.ts';

export type FlowType = AuthConfig['passwordless']['flowType'];

export interface Contact {
  email?: string;
  phoneNumber?: string;
}

export type CreateCodeResult =
  | { status: 'OK'; deviceId: string; preAuthSessionId: string; flowType: FlowType }
  | { status: 'GENERAL_ERROR'; message: string };

export type ConsumeResult =
  | {
      status: 'OK';
      tenantId: string;
      contact: { email: string | null; phoneNumber: string | null };
      factorId: string;
    }
  | {
      status: 'INCORRECT_USER_INPUT_CODE_ERROR' | 'EXPIRED_USER_INPUT_CODE_ERROR';
      failedCodeInputAttemptCount: number;
      maximumCodeInputAttempts: number;
    }
  | { status: 'RESTART_FLOW_ERROR' };

/** Keeps `+` and digits; undefined unless E.164. */
export function normalisePhone(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const phone = value.replace(/[\s\-().]/g, '');
  return E164.test(phone) ? phone : undefined;
}

/**
 * Passwordless sign-in codes (docs/reference/supertokens-fdi/CONTRACT.md §4, core defaults): a 6-digit code and a single-use magic link
 * per send, 15 minutes each, at most 5 wrong codes per attempt, then the flow restarts. Codes are
 * stored as hashes: the 6-digit code keyed by the device id only the client holds, the link by sha256.
 */
export class PasswordlessService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly mailer: Mailer,
    private readonly sms: SmsSender,
    private readonly log: Logger,
    private readonly options: AuthConfig['passwordless'] & { webUrl: string; webBasePath: string },
  ) {}

  async createCode(tenantId: string, contact: Contact, flowType: FlowType): Promise<CreateCodeResult> {
    const now = this.clock.now();
    const deviceId = randomToken(32);
    const preAuthSessionId = sha256Base64Url(deviceId);
    await this.db.transaction(async (tx) => {
      await repo.deleteDevicesCreatedBefore(
        tx,
        new Date(now - this.options.codeLifetimeSeconds * 1000 - 86_400_000),
      );
      await repo.insertDevice(tx, {
        preAuthSessionId,
        tenantId,
        email: contact.email ?? null,
        phoneNumber: contact.phoneNumber ?? null,
        createdAt: new Date(now),
      });
    });
    const sent = await this.sendNewCode(tenantId, deviceId, preAuthSessionId, contact, flowType);
    if (!sent) {
      await repo.deleteDevice(this.db, preAuthSessionId);
      return { status: 'GENERAL_ERROR', message: 'We could not send the sign-in message. Please try again.' };
    }
    return { status: 'OK', deviceId, preAuthSessionId, flowType };
  }

  async resendCode(
    tenantId: string,
    input: { deviceId: string; preAuthSessionId: string },
    flowType: FlowType,
  ): Promise<{ status: 'OK' | 'RESTART_FLOW_ERROR' } | { status: 'GENERAL_ERROR'; message: string }> {
    const device = await repo.findDevice(this.db, input.preAuthSessionId);
    if (
      !device ||
      !safeEqual(sha256Base64Url(input.deviceId), input.preAuthSessionId) ||
      device.tenantId !== tenantId
    ) {
      return { status: 'RESTART_FLOW_ERROR' };
    }
    const contact = { email: device.email ?? undefined, phoneNumber: device.phoneNumber ?? undefined };
    const sent = await this.sendNewCode(tenantId, input.deviceId, input.preAuthSessionId, contact, flowType);
    return sent
      ? { status: 'OK' }
      : { status: 'GENERAL_ERROR', message: 'We could not send the sign-in message. Please try again.' };
  }

  async consume(
    tenantId: string,
    input: { preAuthSessionId: string } & (
      { userInputCode: string; deviceId: string } | { linkCode: string }
    ),
  ): Promise<ConsumeResult> {
    const now = this.clock.now();
    const max = this.options.maxCodeAttempts;
    return this.db.transaction(async (tx): Promise<ConsumeResult> => {
      if ('linkCode' in input) {
        const found = await repo.findCodeByLinkHash(tx, sha256Hex(input.linkCode));
        if (
          !found ||
          !safeEqual(found.device.preAuthSessionId, input.preAuthSessionId) ||
          found.device.tenantId !== tenantId ||
          found.code.expiresAt.getTime() <= now
        ) {
          return { status: 'RESTART_FLOW_ERROR' };
        }
        await repo.deleteDevicesForContact(tx, tenantId, found.device);
        return ok(found.device, 'link');
      }

      const device = await repo.lockDevice(tx, input.preAuthSessionId);
      if (
        !device ||
        !safeEqual(sha256Base64Url(input.deviceId), input.preAuthSessionId) ||
        device.tenantId !== tenantId
      ) {
        return { status: 'RESTART_FLOW_ERROR' };
      }
      const wanted = hmacHex(input.deviceId, input.userInputCode.trim());
      let match: { expiresAt: Date } | undefined;
      // Compare against every code of the device, constant time each, so timing says nothing.
      for (const code of await repo.codesOf(tx, device.preAuthSessionId)) {
        if (safeEqual(code.userInputCodeHash, wanted)) match = code;
      }
      if (match && match.expiresAt.getTime() > now) {
        await repo.deleteDevicesForContact(tx, tenantId, device);
        return ok(device, 'otp');
      }
      const failed = device.failedAttempts + 1;
      if (failed >= max) {
        await repo.deleteDevice(tx, device.preAuthSessionId);
        return { status: 'RESTART_FLOW_ERROR' };
      }
      await repo.setFailedAttempts(tx, device.preAuthSessionId, failed);
      return {
        status: match ? 'EXPIRED_USER_INPUT_CODE_ERROR' : 'INCORRECT_USER_INPUT_CODE_ERROR',
        failedCodeInputAttemptCount: failed,
        maximumCodeInputAttempts: max,
      };
    });

    function ok(
      device: { email: string | null; phoneNumber: string | null },
      kind: 'otp' | 'link',
    ): ConsumeResult {
      return {
        status: 'OK',
        tenantId,
        contact: { email: device.email, phoneNumber: device.phoneNumber },
        factorId: `${kind}-${device.email ? 'email' : 'phone'}`,
      };
    }
  }

  /** The open attempt's contact, for per-address limits on consume (no secret needed). */
  async deviceContact(preAuthSessionId: string): Promise<string | undefined> {
    const device = await repo.findDevice(this.db, preAuthSessionId);
    return device ? (device.email ?? device.phoneNumber ?? undefined) : undefined;
  }

  private async sendNewCode(
    tenantId: string,
    deviceId: string,
    preAuthSessionId: string,
    contact: Contact,
    flowType: FlowType,
  ): Promise<boolean> {
    const now = this.clock.now();
    const userInputCode = randomDigits(6);
    const linkCode = randomToken(32);
    await repo.insertCode(this.db, {
      preAuthSessionId,
      userInputCodeHash: hmacHex(deviceId, userInputCode),
      linkCodeHash: sha256Hex(linkCode),
      createdAt: new Date(now),
      expiresAt: new Date(now + this.options.codeLifetimeSeconds * 1000),
    });
    const code = flowType === 'MAGIC_LINK' ? undefined : userInputCode;
    const link =
      flowType === 'USER_INPUT_CODE'
        ? undefined
        : `${this.options.webUrl}${this.options.webBasePath}/verify?preAuthSessionId=${preAuthSessionId}&tenantId=${encodeURIComponent(tenantId)}#${linkCode}`;
    const minutes = Math.max(1, Math.round(this.options.codeLifetimeSeconds / 60));
    try {
      if (contact.email) {
        await this.mailer.send(signInEmail({ to: contact.email, code, link, minutes }));
      } else if (contact.phoneNumber) {
        const text = [code ? `Your Lumina sign-in code is ${code}.` : '', link ? `Sign in: ${link}` : '']
          .filter(Boolean)
          .join(' ');
        await this.sms.send({ to: contact.phoneNumber, text, code, link });
      }
      return true;
    } catch (err) {
      this.log.error({ err }, 'sending a sign-in code failed');
      return false;
    }
  }
}
