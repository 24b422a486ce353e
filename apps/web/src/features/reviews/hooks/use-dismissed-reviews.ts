import { useCallback, useState } from 'react';

const STORAGE_KEY = 'lumina.reviews.dismissed';

function read(): string[] {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Payments whose review prompt was dismissed, kept in sessionStorage: "Not now" lasts for this browsing
 * session only, so the prompt comes back on the next visit until the review is done.
 */
export function useDismissedReviews() {
  const [dismissed, setDismissed] = useState<string[]>(read);
  const dismiss = useCallback((paymentId: string) => {
    setDismissed((current) => {
      const next = current.includes(paymentId) ? current : [...current, paymentId];
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Storage can be unavailable (private mode); the prompt then stays dismissed for this page only.
      }
      return next;
    });
  }, []);
  return { dismissed, dismiss };
}
