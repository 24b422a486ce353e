/**
 * Which second factors can complete a sign-in, given how it started. A factor on the first factor's
 * channel never satisfies the second-factor requirement of the same sign-in: an email code or magic link
 * reaches the same inbox as the `otp-email` factor (likewise SMS and `otp-phone`), so counting it, or a
 * fresh code to the same inbox, would let one inbox pass both steps. See docs/decisions.md, "A second
 * factor is a second factor".
 */

/** How far a sign-in got: `c` of `st-mfa`, the first factor, and the factors completed in the MFA step. */
export interface FactorProgress {
  completed: Record<string, number>;
  /** The factor that signed the session in (`otp-email`, `link-email`, `thirdparty`, …). */
  first: string | undefined;
  /** Factors completed after sign-in, in the MFA step. */
  second: string[];
}

/**
 * The secret a factor proves: `email` for otp-email and link-email, `phone` for otp-phone and link-phone,
 * `passkey` for webauthn (a passkey sign-in and a passkey second factor are the same authenticator);
 * undefined otherwise.
 */
function inboxOf(factor: string): string | undefined {
  if (factor === 'webauthn') return 'passkey';
  return /^(?:otp|link)-(email|phone)$/.exec(factor)?.[1];
}

/** True when `factor` delivers to the same inbox or phone as the first factor did. */
export function sameChannelAsFirst(factor: string, first: string | undefined): boolean {
  const channel = inboxOf(factor);
  return channel !== undefined && first !== undefined && channel === inboxOf(first);
}

/**
 * The factors this sign-in may complete: the enabled ones off the first factor's channel (authenticator +
 * email code, signed in by email: only the authenticator will do). When every enabled factor is on that
 * channel, another code from the same inbox proves nothing more, so none of them is offered; instead any
 * available factor off the channel will do, set up in the MFA step if need be (an authenticator app or a
 * passkey), so the account gains a second secret rather than a second email.
 */
export function factorsThatCanComplete<F extends string>(
  required: F[],
  first: string | undefined,
  available: readonly F[],
): F[] {
  const others = required.filter((f) => !sameChannelAsFirst(f, first));
  if (others.length > 0 || required.length === 0) return others;
  return available.filter((f) => !sameChannelAsFirst(f, first));
}

/** True when nothing is required or one factor that can complete this sign-in was completed. */
export function requirementsMet(
  required: string[],
  progress: FactorProgress,
  available: readonly string[],
): boolean {
  if (required.length === 0) return true;
  return factorsThatCanComplete(required, progress.first, available).some((f) => f in progress.completed);
}
