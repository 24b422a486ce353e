/**
 * Which enabled second factors can complete a sign-in, given how it started. A factor used to sign in
 * never satisfies the second-factor requirement of the same sign-in: an email code or magic link
 * reaches the same inbox as the `otp-email` factor (likewise SMS and `otp-phone`), so counting it
 * would let one inbox pass both steps. See docs/decisions.md, "A second factor is a second factor".
 */

/** How far a sign-in got: `c` of `st-mfa`, the first factor, and the factors completed in the MFA step. */
export interface FactorProgress {
  completed: Record<string, number>;
  /** The factor that signed the session in (`otp-email`, `link-email`, `thirdparty`, …). */
  first: string | undefined;
  /** Factors completed after sign-in, in the MFA step (only these count when on the first factor's channel). */
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
 * The enabled factors this sign-in may complete. Factors on the first factor's channel are left out
 * while another one is enabled (authenticator + email code, signed in by email: only the authenticator
 * will do). When the only enabled factors share the first factor's channel, they stay, and only a
 * fresh completion in the MFA step counts (a new code sent by the MFA page).
 */
export function factorsThatCanComplete<F extends string>(required: F[], first: string | undefined): F[] {
  const others = required.filter((f) => !sameChannelAsFirst(f, first));
  return others.length > 0 ? others : required;
}

/** True when nothing is required or one usable factor was completed in a way that counts. */
export function requirementsMet(required: string[], progress: FactorProgress): boolean {
  if (required.length === 0) return true;
  return factorsThatCanComplete(required, progress.first).some(
    (f) => f in progress.completed && (!sameChannelAsFirst(f, progress.first) || progress.second.includes(f)),
  );
}
