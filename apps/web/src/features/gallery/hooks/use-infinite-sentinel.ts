import { useEffect, useRef } from 'react';

/**
 * Calls `onReach` when the returned element scrolls within `rootMargin` of the viewport, so the next page
 * loads before the reader gets there. Without IntersectionObserver it does nothing (a button remains).
 */
export function useInfiniteSentinel<T extends Element>(
  onReach: () => void,
  enabled: boolean,
  rootMargin = '600px',
) {
  const ref = useRef<T>(null);
  const onReachRef = useRef(onReach);
  useEffect(() => {
    onReachRef.current = onReach;
  });
  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onReachRef.current();
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled, rootMargin]);
  return ref;
}
