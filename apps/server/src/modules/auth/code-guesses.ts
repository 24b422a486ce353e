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
 *
 * A try is counted as wrong when it is taken, before the code is compared, and given back when the code
 * was right: deciding and counting happen together under the account's lock, so codes sent at once are
 * counted one after another and no more than the limits allow are ever compared.
 */
export class CodeGuessLimits {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly settings: AuthConfig['rateLimit'],
  ) {}

  /** Takes one try at a code for `contact`: why it is refused, or undefined once it is counted. */
  async take(contact: string): Promise<GuessRefusal | undefined> {
    const k = keys(contact);
    return this.limiter.serialised(`pl:guess:${contact}`, async (limiter) => {
      const refused = await this.refusal(limiter, k);
      if (refused) return refused;
      await limiter.hit(k.day, Number.MAX_SAFE_INTEGER, DAY_SECONDS);
      await limiter.hit(k.streak, Number.MAX_SAFE_INTEGER, DAY_SECONDS);
      await limiter.stamp(k.last);
      return undefined;
    });
  }

  /** The code of a taken try was right: the try is given back and the streak ends. */
  async succeeded(contact: string): Promise<void> {
    const k = keys(contact);
    await this.limiter.serialised(`pl:guess:${contact}`, async (limiter) => {
      await limiter.giveBack(k.day);
      await limiter.reset(k.streak, k.last);
    });
  }

  private async refusal(limiter: RateLimiter, k: ReturnType<typeof keys>): Promise<GuessRefusal | undefined> {
    const now = this.clock.now();
    const day = await limiter.peek(k.day, DAY_SECONDS);
    if (day.count >= this.settings.codeGuessesPerDay) {
      return {
        reason: 'daily-cap',
        retryAfterSeconds: secondsUntil(day.windowStart + DAY_SECONDS * 1000, now),
      };
    }
    const streak = (await limiter.peek(k.streak, DAY_SECONDS)).count;
    const beyond = streak - this.settings.backoffAfter;
    if (beyond <= 0) return undefined;
    const waitSeconds = Math.min(this.settings.backoffBaseSeconds * 2 ** (beyond - 1), MAX_BACKOFF_SECONDS);
    const last = await limiter.peek(k.last, DAY_SECONDS);
    const until = last.windowStart + waitSeconds * 1000;
    return last.count > 0 && until > now
      ? { reason: 'backoff', retryAfterSeconds: secondsUntil(until, now) }
      : undefined;
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
