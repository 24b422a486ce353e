/** A controllable `prefers-color-scheme` media query (jsdom has no matchMedia). */
export function fakeColorScheme(initialDark: boolean) {
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const media = {
    matches: initialDark,
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, fn: (event: MediaQueryListEvent) => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: (event: MediaQueryListEvent) => void) => listeners.delete(fn),
  } as unknown as MediaQueryList;
  return {
    matchMedia: () => media,
    /** Simulates the operating system switching its colour scheme. */
    setDark(dark: boolean) {
      (media as { matches: boolean }).matches = dark;
      for (const fn of listeners) fn({ matches: dark, media: media.media } as MediaQueryListEvent);
    },
  };
}
