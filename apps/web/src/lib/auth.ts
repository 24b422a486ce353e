import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { setAccessTokenGetter } from '@/lib/api-client';
import type { SuperTokensModule } from '@/lib/supertokens';

/**
 * The sign-in layer's glue for the product bundle. The SuperTokens SDK itself (about 100 KB gzip for the
 * session core, more for the prebuilt UI) is loaded on demand: only when the browser may hold a session,
 * or when the /auth pages open. A signed-out visitor of the landing page never downloads it.
 */

export type SessionStatus = 'unknown' | 'signedIn' | 'signedOut';

export interface SessionState {
  status: SessionStatus;
  /** The signed-in user's id (the access token's `sub`), else null. */
  userId: string | null;
  /**
   * Which sign-in this is: a new number each time a session starts. Per-user queries put it in their
   * key, so nothing cached in an earlier session (before a sign-out) is shown in the next one.
   */
  sessionKey: number;
  /**
   * Signed in, but a claim that gates product routes is not satisfied yet: the second factor (`st-mfa`)
   * or, when the server requires it, email verification (`st-ev`). The server answers 403 to every
   * product call then, so the app makes none (see `useProductSession`).
   */
  pending: boolean;
}

export const sessionStore = createStore<SessionState>()(() => ({
  status: 'unknown',
  userId: null,
  sessionKey: 0,
  pending: false,
}));

export function useSession<T>(selector: (state: SessionState) => T): T {
  return useStore(sessionStore, selector);
}

/**
 * Who product calls are made for: the user id and session key once the session is known and complete,
 * else a null user id (signed out, not known yet, or a second factor or verification still pending).
 * Every query behind sign-in is enabled only with a user id from here.
 */
export function productSession(state: SessionState): { userId: string | null; sessionKey: number } {
  const ready = state.status === 'signedIn' && !state.pending;
  return { userId: ready ? state.userId : null, sessionKey: state.sessionKey };
}

export function useProductSession(): { userId: string | null; sessionKey: number } {
  const userId = useSession((s) => productSession(s).userId);
  const sessionKey = useSession((s) => s.sessionKey);
  return { userId, sessionKey };
}

export interface SignedInOptions {
  /**
   * The access token's gating claims changed validity (a second factor or an email verification
   * completed), so what the server answers for this user may have changed too.
   */
  claimsChanged?: boolean;
  /** Every claim that gates product routes passes (false while a second factor is pending). */
  complete?: boolean;
}

/**
 * A session exists for `userId`. A new session, a new user, changed claims or a change of completeness
 * gives it a new session key, so per-session queries start afresh.
 */
export function setSignedIn(
  userId: string,
  { claimsChanged = false, complete = true }: SignedInOptions = {},
): void {
  const current = sessionStore.getState();
  const pending = !complete;
  if (
    current.status === 'signedIn' &&
    current.userId === userId &&
    current.pending === pending &&
    !claimsChanged
  ) {
    return;
  }
  sessionStore.setState({ status: 'signedIn', userId, pending, sessionKey: current.sessionKey + 1 });
}

export function setSignedOut(): void {
  sessionStore.setState({ status: 'signedOut', userId: null, pending: false });
}

/**
 * Cookies the SDK keeps on the website domain while a session exists (header mode keeps the tokens in
 * `st-access-token`/`st-refresh-token`, both modes keep the decoded front token in `sFrontToken`).
 * None of them present means there is certainly no session, so the SDK need not be loaded to say so.
 */
const SESSION_COOKIES = ['sFrontToken', 'st-refresh-token', 'st-access-token'] as const;

export function mayHaveSession(
  cookie: string = typeof document === 'undefined' ? '' : document.cookie,
): boolean {
  return cookie
    .split(';')
    .map((part) => part.trim().split('=')[0])
    .some((name) => (SESSION_COOKIES as readonly string[]).includes(name ?? ''));
}

let loading: Promise<SuperTokensModule> | undefined;

/** Loads and initialises the SuperTokens SDK once; later calls share the same promise. */
export function loadSuperTokens(): Promise<SuperTokensModule> {
  loading ??= import('@/lib/supertokens').then(async (module) => {
    await module.initSuperTokens({
      onSessionChange: (session, claimsChanged) =>
        session ? setSignedIn(session.userId, { claimsChanged, complete: session.complete }) : setSignedOut(),
      onSignIn: (event) =>
        signInHooks.forEach((hook) => void Promise.resolve(hook(event)).catch(console.error)),
    });
    return module;
  });
  return loading;
}

export interface SignInEvent {
  userId: string;
  /** True when this sign-in created the user (their first sign-in). */
  createdNewUser: boolean;
  /** `passwordless` or `thirdparty`. */
  recipeId: string;
}

export type SignInHook = (event: SignInEvent) => void | Promise<void>;

const signInHooks = new Set<SignInHook>();

/**
 * Runs `hook` after every successful first-factor sign-in (Google or passwordless), before the redirect.
 * The referral capture (docs/spec/SPEC.md §4: send any stored code, then clear it) attaches here.
 * Returns a function that removes the hook.
 */
export function onSignIn(hook: SignInHook): () => void {
  signInHooks.add(hook);
  return () => signInHooks.delete(hook);
}

/** Bearer token for product calls: none without a session; otherwise the SDK's (refreshed when expired). */
export async function getAccessToken(): Promise<string | undefined> {
  if (!mayHaveSession()) return undefined;
  const supertokens = await loadSuperTokens();
  return supertokens.getAccessToken();
}

/** Works out whether a session exists, loading the SDK only when the cookies say one may. */
export async function startSession(): Promise<void> {
  setAccessTokenGetter(getAccessToken);
  if (!mayHaveSession()) {
    setSignedOut();
    return;
  }
  try {
    const supertokens = await loadSuperTokens();
    const session = await supertokens.currentSession();
    if (session) setSignedIn(session.userId, { complete: session.complete });
    else setSignedOut();
  } catch (error) {
    console.error('Could not load the sign-in layer', error);
    setSignedOut();
  }
}

/**
 * Reads the session's claims again (the SDK's guard calls this after validating them), so the product
 * gate opens as soon as the access token says the sign-in is complete.
 */
export async function recheckSession(): Promise<void> {
  if (!mayHaveSession()) return;
  const supertokens = await loadSuperTokens();
  await supertokens.recheckSession();
}

/** Ends the session on the server and locally. */
export async function signOut(): Promise<void> {
  const supertokens = await loadSuperTokens();
  await supertokens.signOut();
  setSignedOut();
}
