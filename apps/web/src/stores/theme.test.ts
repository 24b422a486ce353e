import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '@lumina/contracts';
import { fakeColorScheme } from '@/testing/fake-media';
import { applyThemeToDocument, createThemeStore } from './theme';

function setup({ systemDark = false } = {}) {
  const scheme = fakeColorScheme(systemDark);
  const store = createThemeStore({ storage: () => localStorage, matchMedia: scheme.matchMedia });
  return { store, scheme };
}

const saved = () => localStorage.getItem(THEME_STORAGE_KEY);

describe('theme store', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => document.documentElement.classList.remove('dark'));

  it('starts light and loading, before reading any preference', () => {
    localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify({ state: { theme: 'dark' }, version: 0 }));
    const { store } = setup({ systemDark: true });
    expect(store.getState()).toMatchObject({ theme: 'light', loading: true });
  });

  it('uses the saved preference over the system one', () => {
    localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify({ state: { theme: 'light' }, version: 0 }));
    const { store } = setup({ systemDark: true });
    store.getState().init();
    expect(store.getState()).toMatchObject({ theme: 'light', loading: false, saved: true });
  });

  it('falls back to the system preference when nothing is saved, without saving it', () => {
    const { store } = setup({ systemDark: true });
    store.getState().init();
    expect(store.getState()).toMatchObject({ theme: 'dark', loading: false, saved: false });
    expect(saved()).toBeNull();
  });

  it('ignores a malformed saved value', () => {
    localStorage.setItem(THEME_STORAGE_KEY, '{"state":{"theme":"purple"}}');
    const { store } = setup({ systemDark: true });
    store.getState().init();
    expect(store.getState()).toMatchObject({ theme: 'dark', saved: false });
  });

  it('toggle flips the theme and persists it under theme-storage', () => {
    const { store } = setup();
    store.getState().init();
    store.getState().toggle();
    expect(store.getState().theme).toBe('dark');
    expect(JSON.parse(saved() ?? 'null')).toEqual({ state: { theme: 'dark' }, version: 0 });
    store.getState().toggle();
    expect(store.getState().theme).toBe('light');
    expect(JSON.parse(saved() ?? 'null')).toEqual({ state: { theme: 'light' }, version: 0 });

    const reloaded = setup().store;
    reloaded.getState().init();
    expect(reloaded.getState().theme).toBe('light');
  });

  it('follows system changes only while nothing is saved', () => {
    const { store, scheme } = setup();
    store.getState().init();
    scheme.setDark(true);
    expect(store.getState().theme).toBe('dark');
    scheme.setDark(false);
    expect(store.getState().theme).toBe('light');

    store.getState().toggle();
    expect(store.getState().theme).toBe('dark');
    scheme.setDark(true);
    scheme.setDark(false);
    expect(store.getState().theme).toBe('dark');
  });

  it('does not follow system changes when a preference was saved before load', () => {
    localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify({ state: { theme: 'dark' }, version: 0 }));
    const { store, scheme } = setup();
    store.getState().init();
    scheme.setDark(false);
    expect(store.getState().theme).toBe('dark');
  });

  it('keeps the dark class on <html> in step with the theme', () => {
    const { store } = setup();
    const stop = applyThemeToDocument(store);
    store.getState().init();
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    store.getState().toggle();
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    store.getState().toggle();
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    stop();
  });
});
