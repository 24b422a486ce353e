import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { progressQueryKey } from '@/lib/jobs/job-cache';
import { readProgressStream, type ProgressStreamOptions } from '../api/progress-stream';

export type StreamState = 'connecting' | 'live' | 'fallback';

export interface ProgressSyncOptions extends Pick<
  ProgressStreamOptions,
  'baseUrl' | 'getToken' | 'idleTimeoutMs'
> {
  /** First reconnect delay after the stream drops; doubles each failed attempt, capped at 30 s. */
  reconnectDelayMs?: number;
}

const MAX_RECONNECT_DELAY_MS = 30_000;

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * Keeps the `progress` query fed from the SSE stream. Each snapshot replaces the cached jobs. When the
 * stream cannot connect or drops, the state turns to `fallback` (the progress query then polls every
 * 2 s while a job is active) and the stream is retried with back-off.
 */
export function useProgressSync(options: ProgressSyncOptions = {}): StreamState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');
  // Read at connect time, so a caller passing a new options object each render does not restart the stream.
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    void (async () => {
      let attempt = 0;
      while (!signal.aborted) {
        const { baseUrl, getToken, idleTimeoutMs } = optionsRef.current;
        try {
          await readProgressStream({
            signal,
            baseUrl,
            getToken,
            idleTimeoutMs,
            onOpen: () => {
              attempt = 0;
              // The stream's first snapshot is newer than any fetch still in flight: drop that fetch.
              void queryClient.cancelQueries({ queryKey: progressQueryKey });
              setState('live');
            },
            onSnapshot: (snapshot) => queryClient.setQueryData(progressQueryKey, snapshot),
          });
        } catch {
          // Reported through the state below; the page keeps working by polling.
        }
        if (signal.aborted) return;
        setState('fallback');
        // Catch up on whatever changed while the stream was down, then poll until it is back.
        void queryClient.invalidateQueries({ queryKey: progressQueryKey });
        const delay = (optionsRef.current.reconnectDelayMs ?? 2_000) * 2 ** attempt;
        await sleep(Math.min(delay, MAX_RECONNECT_DELAY_MS), signal);
        attempt += 1;
      }
    })();
    return () => controller.abort();
  }, [queryClient]);

  return state;
}
