import type { Logger } from '../../logger.ts';

export interface SignedInUser {
  id: string;
  email: string | null;
}

export interface SignInContext {
  isNewUser: boolean;
  tenantId: string;
  /** The factor that completed the sign-in, e.g. `otp-email`, `link-email`. */
  factorId: string;
}

export type SignInHook = (user: SignedInUser, context: SignInContext) => Promise<void> | void;

/**
 * Callbacks run after every successful sign-in (e.g. the referral module attaches here). A failing
 * hook is logged and does not undo the sign-in.
 */
export class SignInHooks {
  private readonly hooks: SignInHook[] = [];

  constructor(private readonly log: Logger) {}

  onSignIn(hook: SignInHook): void {
    this.hooks.push(hook);
  }

  async run(user: SignedInUser, context: SignInContext): Promise<void> {
    for (const hook of this.hooks) {
      try {
        await hook(user, context);
      } catch (err) {
        this.log.error({ err, userId: user.id }, 'a sign-in hook failed');
      }
    }
  }
}
