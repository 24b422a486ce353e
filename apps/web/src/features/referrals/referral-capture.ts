import { ALREADY_REFERRED, REFERRAL_CODE } from '@lumina/contracts';

/**
 * The client side of the referral programme (docs/spec/SPEC.md §2-5, §8; checklist P7), in one place:
 * any page's `?ref=` is kept in localStorage and sessionStorage; about a second after load a signed-in
 * person's held code is tracked once; after a successful sign-in any held code is sent, then cleared.
 * The browser pieces (storages, the track call, the session) are passed in, so this is tested as is.
 */

/** What is kept between pages and visits (SPEC.md §3: stored referral data). */
export interface StoredReferral {
  code: string;
  /** When the code was seen (ms since the epoch). */
  timestamp: number;
  /** The page the visitor arrived on with it. */
  source_url: string;
  /** A code is held (waiting to be tracked). */
  held: boolean;
  /** Tracking was attempted once already; the load-time check does not try again. */
  tracking_attempted: boolean;
}

/** SPEC.md §9: tracking waits about one second after load. */
export const REFERRAL_TRACK_DELAY_MS = 1000;

export const REFERRAL_STORAGE_KEY = 'lumina.referral';

/** Both places the data lives: local (survives the tab) and session (survives a cleared local store). */
export type ReferralStorages = readonly Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>[];

export interface ReferralDeps {
  storages: ReferralStorages;
  /** POST /api/referrals/track?referral_code=; rejects with an error carrying the server's `detail`. */
  track: (code: string) => Promise<unknown>;
  /** Whether a session exists (waiting until the sign-in layer knows). */
  hasSession: () => Promise<boolean>;
  log?: (message: string, error: unknown) => void;
}

function browserStorages(): ReferralStorages {
  const found: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>[] = [];
  // Either may be unavailable (a privacy mode throws on access); the other still works.
  for (const get of [() => window.localStorage, () => window.sessionStorage]) {
    try {
      found.push(get());
    } catch {
      /* unavailable */
    }
  }
  return found;
}

export const defaultStorages = (): ReferralStorages =>
  typeof window === 'undefined' ? [] : browserStorages();

function parse(raw: string | null): StoredReferral | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredReferral>;
    if (typeof value.code !== 'string' || !REFERRAL_CODE.test(value.code)) return null;
    return {
      code: value.code,
      timestamp: typeof value.timestamp === 'number' ? value.timestamp : 0,
      source_url: typeof value.source_url === 'string' ? value.source_url : '',
      held: value.held === true,
      tracking_attempted: value.tracking_attempted === true,
    };
  } catch {
    return null;
  }
}

/** The stored referral: the local copy, else the session copy. */
export function readStoredReferral(storages: ReferralStorages): StoredReferral | null {
  for (const storage of storages) {
    try {
      const found = parse(storage.getItem(REFERRAL_STORAGE_KEY));
      if (found) return found;
    } catch {
      /* this store is unreadable; try the next */
    }
  }
  return null;
}

function write(storages: ReferralStorages, data: StoredReferral): void {
  const raw = JSON.stringify(data);
  for (const storage of storages) {
    try {
      storage.setItem(REFERRAL_STORAGE_KEY, raw);
    } catch {
      /* full or blocked: the other store keeps it */
    }
  }
}

export function clearStoredReferral(storages: ReferralStorages): void {
  for (const storage of storages) {
    try {
      storage.removeItem(REFERRAL_STORAGE_KEY);
    } catch {
      /* nothing to clear */
    }
  }
}

/** The `ref` of a URL when it is a well-formed code, else null. */
export function referralCodeIn(url: string): string | null {
  const code = new URL(url, 'http://localhost').searchParams.get('ref')?.trim();
  return code && REFERRAL_CODE.test(code) ? code : null;
}

/**
 * Keeps the `?ref=` of `url` (any page). A different code replaces the held one and may be tracked
 * again; the same code seen again changes nothing. Returns what is stored now.
 */
export function captureReferral(
  url: string,
  storages: ReferralStorages,
  now: number = Date.now(),
): StoredReferral | null {
  const code = referralCodeIn(url);
  const stored = readStoredReferral(storages);
  if (!code || stored?.code === code) return stored;
  const data: StoredReferral = {
    code,
    timestamp: now,
    source_url: url,
    held: true,
    tracking_attempted: false,
  };
  write(storages, data);
  return data;
}

function detailOf(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'detail' in error && typeof error.detail === 'string'
    ? error.detail
    : undefined;
}

export type TrackOutcome = 'tracked' | 'already-referred' | 'failed' | 'skipped';

/** The send under way in this page, so the load-time check and the sign-in hook never send twice at once. */
let pending: { code: string; outcome: Promise<TrackOutcome> } | null = null;

function send(code: string, deps: ReferralDeps): Promise<TrackOutcome> {
  if (pending?.code === code) return pending.outcome;
  const outcome = sendNow(code, deps).finally(() => {
    if (pending?.outcome === outcome) pending = null;
  });
  pending = { code, outcome };
  return outcome;
}

/** Sends `code`; success and 'User already has a referral' clear the stored data, other errors are logged. */
async function sendNow(code: string, deps: ReferralDeps): Promise<TrackOutcome> {
  try {
    await deps.track(code);
    clearStoredReferral(deps.storages);
    return 'tracked';
  } catch (error) {
    if (detailOf(error) === ALREADY_REFERRED) {
      clearStoredReferral(deps.storages);
      return 'already-referred';
    }
    (deps.log ?? console.error)('Could not track the referral', error);
    return 'failed';
  }
}

/**
 * The load-time check (SPEC.md §4-5): skipped without a session, without a held code, or when tracking
 * was attempted; otherwise marks the attempt first (so a second tab or a reload does not repeat it) and
 * tracks once.
 */
export async function trackHeldReferral(deps: ReferralDeps): Promise<TrackOutcome> {
  const stored = readStoredReferral(deps.storages);
  if (!stored?.held || stored.tracking_attempted) return 'skipped';
  if (!(await deps.hasSession())) return 'skipped';
  // Read again: the sign-in hook may have sent and cleared it while the session was being worked out.
  const current = readStoredReferral(deps.storages);
  if (!current?.held || current.tracking_attempted) return 'skipped';
  write(deps.storages, { ...current, tracking_attempted: true });
  return send(current.code, deps);
}

/** Runs the load-time check `REFERRAL_TRACK_DELAY_MS` after now; returns a function that cancels it. */
export function scheduleReferralTracking(deps: ReferralDeps): () => void {
  const timer = setTimeout(() => void trackHeldReferral(deps), REFERRAL_TRACK_DELAY_MS);
  return () => clearTimeout(timer);
}

/**
 * After a successful sign-in (Google or passwordless): any stored code is sent, then cleared, whatever
 * the answer (the person is signed in now; a failure is only logged).
 */
export async function sendReferralAfterSignIn(deps: Omit<ReferralDeps, 'hasSession'>): Promise<TrackOutcome> {
  const stored = readStoredReferral(deps.storages);
  if (!stored) return 'skipped';
  // Not marked as attempted first: if the page is left before the answer (a full redirect after the
  // sign-in), the next load's check sends it again, and the server's ALREADY_REFERRED then clears it.
  const outcome = await send(stored.code, { ...deps, hasSession: () => Promise.resolve(true) });
  clearStoredReferral(deps.storages);
  return outcome;
}
