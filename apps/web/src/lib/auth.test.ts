import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  getAccessToken,
  mayHaveSession,
  sessionStore,
  setSignedIn,
  setSignedOut,
  startSession,
} from './auth';

const clearCookies = () => {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
};

afterEach(() => {
  clearCookies();
  sessionStore.setState({ status: 'unknown', userId: null });
});

describe('session glue', () => {
  it('reads the SDK cookies to tell whether a session may exist', () => {
    expect(mayHaveSession('')).toBe(false);
    expect(mayHaveSession('sCurrLanguage=en; theme=dark')).toBe(false);
    expect(mayHaveSession('sCurrLanguage=en; sFrontToken=eyJ1aWQiOiJ4In0=')).toBe(true);
    expect(mayHaveSession('st-refresh-token=abc')).toBe(true);
    expect(mayHaveSession('st-access-token=abc; other=1')).toBe(true);
  });

  it('without session cookies it is signed out at once, no token, and the SDK is never loaded', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await startSession();
    expect(sessionStore.getState()).toMatchObject({ status: 'signedOut', userId: null });
    await expect(getAccessToken()).resolves.toBeUndefined();
    // Loading the SDK would ask the server for its login methods first.
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });

  it('gives every new sign-in a new session key, so per-user caches of an earlier session are not reused', () => {
    setSignedIn('u-1');
    const first = sessionStore.getState().sessionKey;
    setSignedIn('u-1'); // a refresh of the same session
    expect(sessionStore.getState().sessionKey).toBe(first);
    setSignedOut();
    setSignedIn('u-1'); // signed in again, e.g. stopped at the second factor this time
    expect(sessionStore.getState()).toMatchObject({
      status: 'signedIn',
      userId: 'u-1',
      sessionKey: first + 1,
    });
  });
});
