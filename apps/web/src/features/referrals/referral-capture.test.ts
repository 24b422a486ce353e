import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALREADY_REFERRED } from '@lumina/contracts';
import { ApiError } from '@/lib/api-client';
import {
  REFERRAL_STORAGE_KEY,
  REFERRAL_TRACK_DELAY_MS,
  captureReferral,
  readStoredReferral,
  scheduleReferralTracking,
  sendReferralAfterSignIn,
  type ReferralDeps,
} from './referral-capture';

const storages = [window.localStorage, window.sessionStorage];
const stored = (storage: Storage) => JSON.parse(storage.getItem(REFERRAL_STORAGE_KEY) ?? 'null') as unknown;

function deps(overrides: Partial<ReferralDeps> = {}) {
  const track = vi.fn<(code: string) => Promise<unknown>>().mockResolvedValue({});
  const log = vi.fn();
  return {
    track,
    log,
    deps: { storages, track, log, hasSession: () => Promise.resolve(true), ...overrides } as ReferralDeps,
  };
}

/** Lets the timer fire and every promise it started settle. */
async function afterDelay(ms = REFERRAL_TRACK_DELAY_MS) {
  await vi.advanceTimersByTimeAsync(ms);
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.useFakeTimers({ now: new Date('2026-11-24T10:00:00Z') });
});
afterEach(() => vi.useRealTimers());

describe('capturing ?ref=', () => {
  it('keeps code, timestamp, source URL, held and attempted flags in localStorage and sessionStorage', () => {
    captureReferral('https://lumina.test/products?ref=FRIEND-1&x=2', storages);
    const expected = {
      code: 'FRIEND-1',
      timestamp: Date.parse('2026-11-24T10:00:00Z'),
      source_url: 'https://lumina.test/products?ref=FRIEND-1&x=2',
      held: true,
      tracking_attempted: false,
    };
    expect(stored(window.localStorage)).toEqual(expected);
    expect(stored(window.sessionStorage)).toEqual(expected);
  });

  it('ignores pages without ref and malformed codes, and a new code replaces the old one', () => {
    expect(captureReferral('https://lumina.test/', storages)).toBeNull();
    expect(captureReferral('https://lumina.test/?ref=a b', storages)).toBeNull();
    expect(captureReferral('https://lumina.test/?ref=x', storages)).toBeNull();
    captureReferral('https://lumina.test/?ref=FIRST', storages);
    captureReferral('https://lumina.test/?ref=SECOND', storages);
    expect(readStoredReferral(storages)?.code).toBe('SECOND');
  });

  it('falls back to the session copy when the local one is gone', () => {
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    window.localStorage.clear();
    expect(readStoredReferral(storages)?.code).toBe('FRIEND');
  });
});

describe('tracking about a second after load', () => {
  it('tracks a held code once, after the delay, and clears the data on success', async () => {
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    const { deps: d, track } = deps();
    scheduleReferralTracking(d);
    await afterDelay(REFERRAL_TRACK_DELAY_MS - 1);
    expect(track).not.toHaveBeenCalled();
    await afterDelay(1);
    expect(track).toHaveBeenCalledExactlyOnceWith('FRIEND');
    expect(stored(window.localStorage)).toBeNull();
    expect(stored(window.sessionStorage)).toBeNull();
  });

  it('clears silently when the server says the person already has a referral', async () => {
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    const { deps: d, track, log } = deps();
    track.mockRejectedValue(new ApiError(409, 'CONFLICT', ALREADY_REFERRED));
    scheduleReferralTracking(d);
    await afterDelay();
    expect(track).toHaveBeenCalledOnce();
    expect(readStoredReferral(storages)).toBeNull();
    expect(log).not.toHaveBeenCalled();
  });

  it('only logs other errors, keeps the code marked as attempted, and does not try again', async () => {
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    const { deps: d, track, log } = deps();
    track.mockRejectedValue(new ApiError(404, 'NOT_FOUND', 'This referral code does not exist'));
    scheduleReferralTracking(d);
    await afterDelay();
    expect(log).toHaveBeenCalledOnce();
    expect(readStoredReferral(storages)).toMatchObject({ code: 'FRIEND', tracking_attempted: true });
    // The next page load: attempted already, so skipped.
    scheduleReferralTracking(d);
    await afterDelay();
    expect(track).toHaveBeenCalledOnce();
  });

  it('is skipped without a session, without a code, and when cancelled before the delay', async () => {
    const { deps: d, track } = deps({ hasSession: () => Promise.resolve(false) });
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    scheduleReferralTracking(d);
    await afterDelay();
    expect(track).not.toHaveBeenCalled();
    expect(readStoredReferral(storages)).toMatchObject({ held: true, tracking_attempted: false });

    const signedIn = deps();
    window.localStorage.clear();
    window.sessionStorage.clear();
    scheduleReferralTracking(signedIn.deps);
    await afterDelay();
    expect(signedIn.track).not.toHaveBeenCalled();

    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    const cancel = scheduleReferralTracking(signedIn.deps);
    cancel();
    await afterDelay();
    expect(signedIn.track).not.toHaveBeenCalled();
  });
});

describe('after a successful sign-in', () => {
  it('sends the stored code and clears it, even when the load-time attempt was made', async () => {
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    const failing = deps();
    failing.track.mockRejectedValue(new ApiError(0, 'NETWORK_ERROR', 'offline'));
    scheduleReferralTracking(failing.deps);
    await afterDelay();
    const { deps: d, track } = deps();
    await sendReferralAfterSignIn(d);
    expect(track).toHaveBeenCalledExactlyOnceWith('FRIEND');
    expect(readStoredReferral(storages)).toBeNull();
  });

  it('clears the code when sending fails, logging the error, and sends nothing without one', async () => {
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    const { deps: d, track, log } = deps();
    track.mockRejectedValue(new ApiError(400, 'VALIDATION_FAILED', 'This code is no longer active'));
    expect(await sendReferralAfterSignIn(d)).toBe('failed');
    expect(log).toHaveBeenCalledOnce();
    expect(readStoredReferral(storages)).toBeNull();
    expect(await sendReferralAfterSignIn(d)).toBe('skipped');
    expect(track).toHaveBeenCalledOnce();
  });

  it('a send cut short by leaving the page is made again by the next load’s check', async () => {
    /** Each page load runs its own copy of the module. */
    const loadPage = async () => {
      vi.resetModules();
      return import('./referral-capture');
    };
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    const leavingPage = await loadPage();
    const leaving = deps();
    leaving.track.mockReturnValue(new Promise(() => undefined));
    void leavingPage.sendReferralAfterSignIn(leaving.deps);
    const nextPage = await loadPage();
    const next = deps();
    nextPage.scheduleReferralTracking(next.deps);
    await afterDelay();
    expect(next.track).toHaveBeenCalledExactlyOnceWith('FRIEND');
    expect(readStoredReferral(storages)).toBeNull();
  });

  it('a sign-in right as the load-time check runs sends the code once, not twice', async () => {
    captureReferral('https://lumina.test/?ref=FRIEND', storages);
    const { deps: d, track } = deps();
    let answer = (_: unknown) => undefined as void;
    track.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    scheduleReferralTracking(d);
    await afterDelay();
    const afterSignIn = sendReferralAfterSignIn(d);
    answer({});
    expect(await afterSignIn).toBe('tracked');
    expect(track).toHaveBeenCalledOnce();
    expect(readStoredReferral(storages)).toBeNull();
  });
});
