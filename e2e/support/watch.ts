import type { Page, Request, Response } from '@playwright/test';

/** A 4xx a step expects: the request's method and path (no origin, no query) and the status. */
export interface ExpectedStatus {
  method: string;
  path: RegExp;
  status: number;
  /** Why this answer is normal at this point of the journey. */
  why: string;
}

/** A request the app itself cancels (an AbortController), which the browser reports as net::ERR_ABORTED. */
export interface ExpectedAbort {
  method: string;
  path: RegExp;
  why: string;
}

/** Chromium's own console line for any resource answered with an error status. */
const RESOURCE_ERROR = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

/**
 * Collects everything a person would call "the app broke" while a page is driven: console errors,
 * uncaught exceptions, failed requests and error responses (every 5xx, and each 4xx that the current
 * step did not declare with `expecting`). `problems()` is checked at the end of each step.
 *
 * Chromium also prints "Failed to load resource: … status of 401" to the console for every error
 * response; that line is the same event as the response, so it is accepted exactly when the response
 * is (it is not the app calling console.error).
 */
export function watchForProblems(page: Page, aborts: readonly ExpectedAbort[] = []) {
  const found: string[] = [];
  let allowed: readonly ExpectedStatus[] = [];
  /** Order in which requests were sent, to tell a newer request for the same URL from an older one. */
  const sent = new WeakMap<Request, number>();
  let sequence = 0;
  /** GETs cancelled by the app, waiting for a newer request for the same URL to be answered. */
  const superseded = new Map<Request, string>();
  const answered: { key: string; order: number }[] = [];
  const pathOf = (url: string) => new URL(url).pathname;
  const keyOf = (request: Request) => `${request.method()} ${request.url()}`;
  const isExpected = (method: string | undefined, url: string, status: number) =>
    status < 500 &&
    allowed.some(
      (a) => a.status === status && (method === undefined || a.method === method) && a.path.test(pathOf(url)),
    );

  page.on('request', (request) => sent.set(request, (sequence += 1)));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location();
    const resource = RESOURCE_ERROR.exec(message.text());
    if (resource && where.url && isExpected(undefined, where.url, Number(resource[1]))) return;
    found.push(`console error: ${message.text()} (${where.url}:${where.lineNumber})`);
  });
  page.on('pageerror', (error) => found.push(`uncaught exception: ${error.message}`));
  page.on('requestfailed', (request: Request) => {
    const error = request.failure()?.errorText;
    const line = `request failed: ${request.method()} ${request.url()} (${error ?? 'unknown'})`;
    if (error === 'net::ERR_ABORTED') {
      if (aborts.some((a) => a.method === request.method() && a.path.test(pathOf(request.url())))) return;
      // A picture or video still loading when the person moves on: the browser drops the load of an
      // element that left the page. (A broken file shows up as an error status or another error.)
      if (['image', 'media'].includes(request.resourceType())) return;
      // A query refetched while its previous fetch was still running cancels that fetch (TanStack
      // Query's cancelRefetch). It is not a failure when the newer fetch of the same URL is answered.
      if (request.method() === 'GET') {
        superseded.set(request, line);
        return;
      }
    }
    found.push(line);
  });
  page.on('response', (response: Response) => {
    const status = response.status();
    const request = response.request();
    if (status < 400) {
      answered.push({ key: keyOf(request), order: sent.get(request) ?? 0 });
      return;
    }
    if (!isExpected(request.method(), response.url(), status)) {
      found.push(`unexpected ${status}: ${request.method()} ${response.url()}`);
    }
  });
  const unanswered = () =>
    [...superseded]
      .filter(
        ([request]) => !answered.some((a) => a.key === keyOf(request) && a.order > (sent.get(request) ?? 0)),
      )
      .map(([, line]) => `${line}, and no newer request for it was answered`);
  return {
    problems: () => [...found, ...unanswered()],
    /** The 4xx answers the steps from here on expect (replaces the previous list). */
    expecting: (list: readonly ExpectedStatus[]) => {
      allowed = list;
    },
  };
}
