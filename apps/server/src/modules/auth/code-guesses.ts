import type { AuthConfig } from '../../config.ts';
import type { Clock } from '../../clock.ts';
import type { RateLimiter } from './rate-limiter.ts';

const DAY_SECONDS = 86_400;
/** The longest wait the doubling reaches, so a person who mistyped is never locked out for days. */
const MAX_BACKOFF_SECONDS = 3600;

export type GuessRefusal = { reason: 'daily-cap' | 'backoff'; retryAfterSeconds: number };

/**
 * Wrong sign-in codes per account (email or phone), on top of the per-window limits: a daily cap, and
 * after `backoffAfter` wrong codes in a row each further one doubles the wait before the next try is
 * accepted. Counted in the shared RateLimiter table, so every API process sees the same numbers. A
 * correct code ends the streak (not the daily count, which an attacker must not be able to reset).
 */
export class CodeGuessLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly settings: AuthConfig['rateLimit'],
  ) {}

  /** Why a code for `contact` may not be tried now, or undefined when it may. */
  async refusal(contact: string): Promise<GuessRefusal | undefined> {
    const now = this.clock.now();
    const day = await this.limiter.peek(keys(contact).day, DAY_SECONDS);
    if (day.count >= this.settings.codeGuessesPerDay) {
      return {
        reason: 'daily-cap',
        retryAfterSeconds: secondsUntil(day.windowStart + DAY_SECONDS * 1000, now),
      };
    }
    const streak = (await this.limiter.peek(keys(contact).streak, DAY_SECONDS)).count;
    const beyond = streak - this.settings.backoffAfter;
    if (beyond <= 0) return undefined;
    const waitSeconds = Math.min(this.settings.backoffBaseSeconds * 2 ** (beyond - 1), MAX_BACKOFF_SECONDS);
    const last = await this.limiter.peek(keys(contact).last, DAY_SECONDS);
    const until = last.windowStart + waitSeconds * 1000;
    return last.count > 0 && until > now
      ? { reason: 'backoff', retryAfterSeconds: secondsUntil(until, now) }
      : undefined;
  }

  async failed(contact: string): Promise<void> {
    const k = keys(contact);
    await this.limiter.hit(k.day, Number.MAX_SAFE_INTEGER, DAY_SECONDS);
    await this.limiter.hit(k.streak, Number.MAX_SAFE_INTEGER, DAY_SECONDS);
    await this.limiter.stamp(k.last);
  }

  async succeeded(contact: string): Promise<void> {
    const k = keys(contact);
    await this.limiter.reset(k.streak, k.last);
  }
}

function keys(contact: string) {
  return {
    day: `pl:guess-day:${contact}`,
    streak: `pl:guess-streak:${contact}`,
    last: `pl:guess-last:${contact}`,
  };
}

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));
