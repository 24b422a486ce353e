/** The before/after comparison's divider position, 0 (all "after") to 100 (all "before"), as a whole percent. */

export const clampPercent = (value: number) => Math.min(100, Math.max(0, Math.round(value)));

/** The position under a pointer at `clientX` over a box spanning `left`…`left + width`. */
export function percentAtPointer(clientX: number, box: { left: number; width: number }): number {
  if (box.width <= 0) return 50;
  return clampPercent(((clientX - box.left) / box.width) * 100);
}

/**
 * The position after a key press on the slider (WAI-ARIA slider pattern): arrows move 1 (10 with Shift),
 * Page Up/Down 10, Home/End to the ends. Null for keys the slider does not handle.
 */
export function percentAfterKey(key: string, value: number, shift = false): number | null {
  const step = shift ? 10 : 1;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampPercent(value - step);
    case 'ArrowRight':
    case 'ArrowUp':
      return clampPercent(value + step);
    case 'PageDown':
      return clampPercent(value - 10);
    case 'PageUp':
      return clampPercent(value + 10);
    case 'Home':
      return 0;
    case 'End':
      return 100;
    default:
      return null;
  }
}
