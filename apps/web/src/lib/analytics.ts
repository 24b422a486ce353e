import type { PostHog, PostHogConfig } from 'posthog-js';
import { publicConfigContract } from '@lumina/contracts';
import { env } from '@/config/env';
import { api } from '@/lib/api-client';

/**
 * Product analytics (docs/spec/SPEC.md §1 and §9) through posthog-js, loaded only when a PostHog key is
 * configured: at build time (VITE_POSTHOG_KEY / VITE_POSTHOG_HOST) or by the server's public config
 * (GET /api/config). Without one the SDK is never downloaded and nothing is sent.
 */

/** Spec section 9: captured text is cut at 255 characters, the user agent at 1,000. */
export const TEXT_MAX = 255;
export const USER_AGENT_MAX = 1000;

/** The SDK settings the spec fixes, where posthog-js exposes them. */
export function posthogOptions(host: string): Partial<PostHogConfig> {
  return {
    api_host: host,
    // Page views are sent by the router on every route change (trackPageview), page leaves likewise
    // and when the tab closes.
    capture_pageview: false,
    capture_pageleave: true,
    autocapture: true,
    // A rage click: 3 clicks within 30 px and 1 s.
    rageclick: { threshold_px: 30, click_count: 3, timeout_ms: 1000 },
    // Exceptions: a token bucket of 10, refilled 1 per 10 s (the SDK's refill interval is 10 s).
    capture_exceptions: true,
    error_tracking: { exceptionRateLimiterBucketSize: 10, exceptionRateLimiterRefillRate: 1 },
    // No session replay, surveys or scripts from the analytics host: the product's CSP allows only
    // sending events there.
    disable_session_recording: true,
    disable_surveys: true,
    disable_external_dependency_loading: true,
    advanced_disable_flags: true,
    persistence: 'localStorage+cookie',
    before_send: (event) => {
      if (!event) return event;
      const props = event.properties;
      const cut = (value: unknown, max: number) =>
        typeof value === 'string' && value.length > max ? value.slice(0, max) : value;
      if (props) {
        if ('$el_text' in props) props.$el_text = cut(props.$el_text, TEXT_MAX);
        if ('$raw_user_agent' in props) props.$raw_user_agent = cut(props.$raw_user_agent, USER_AGENT_MAX);
        if (Array.isArray(props.$elements)) {
          for (const el of props.$elements as Array<Record<string, unknown>>) {
            if ('$el_text' in el) el.$el_text = cut(el.$el_text, TEXT_MAX);
          }
        }
      }
      return event;
    },
  };
}

let loading: Promise<PostHog | null> | undefined;

async function resolveSettings(): Promise<{ key: string; host: string } | null> {
  if (env.posthog) return env.posthog;
  const config = await api.call(publicConfigContract);
  return config.analytics ? { key: config.analytics.posthog_key, host: config.analytics.posthog_host } : null;
}

/** Starts analytics once; resolves to null when none is configured (or its settings could not be read). */
export function startAnalytics(): Promise<PostHog | null> {
  loading ??= resolveSettings()
    .then(async (settings) => {
      if (!settings) return null;
      const { posthog } = await import('./analytics-sdk');
      posthog.init(settings.key, posthogOptions(settings.host));
      return posthog;
    })
    .catch((error: unknown) => {
      console.warn('Analytics are off: their settings could not be loaded', error);
      return null;
    });
  return loading;
}

/** Runs `fn` with the SDK once it is loaded, in call order; does nothing without analytics. */
function withClient(fn: (posthog: PostHog) => void): void {
  void startAnalytics().then((posthog) => {
    if (posthog) fn(posthog);
  });
}

/** A page view for the route just shown. */
export const trackPageview = () => withClient((p) => p.capture('$pageview'));

/** A page leave for the route being left (the SDK sends one itself when the tab closes). */
export const trackPageleave = (url: string) =>
  withClient((p) => p.capture('$pageleave', { $current_url: url }));

/** The signed-in person, by id and email (docs/spec/SPEC.md §1). */
export const identify = (id: string, email: string) =>
  withClient((p) => {
    if (p.get_distinct_id() !== id) p.identify(id, { email });
  });

/** Sign-out: later events belong to an anonymous visitor again. */
export const resetAnalytics = () => withClient((p) => p.reset());
