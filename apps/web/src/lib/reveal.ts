/**
 * Brings an element fully into view when it is not already: the newest job or result after its action
 * was pressed, so the person sees what happened without hunting for it. `margin` keeps it clear of the
 * sticky header (top) and a fixed action bar (bottom).
 */
export function reveal(
  element: Element | null | undefined,
  margin: { top?: number; bottom?: number } = {},
): void {
  if (!element || typeof window === 'undefined') return;
  const top = margin.top ?? 80;
  const bottom = margin.bottom ?? 0;
  const rect = element.getBoundingClientRect();
  const viewport = window.innerHeight;
  if (rect.top >= top && rect.bottom <= viewport - bottom) return;
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top: window.scrollY + rect.top - top, behavior: reduce ? 'auto' : 'smooth' });
}

/** Runs `fn` after React has rendered what the last state change added (two frames). */
export function afterRender(fn: () => void): void {
  if (typeof requestAnimationFrame !== 'function') return;
  requestAnimationFrame(() => requestAnimationFrame(fn));
}
