import { describe, expect, it } from 'vitest';
import type { CaptureResult } from 'posthog-js';
import { posthogOptions, TEXT_MAX, USER_AGENT_MAX } from './analytics';

describe('analytics settings (SPEC.md §9)', () => {
  const options = posthogOptions('https://ph.example');

  it('sets rage clicks, the exception bucket, page views by route and no external scripts', () => {
    expect(options).toMatchObject({
      api_host: 'https://ph.example',
      capture_pageview: false,
      capture_pageleave: true,
      autocapture: true,
      rageclick: { threshold_px: 30, click_count: 3, timeout_ms: 1000 },
      capture_exceptions: true,
      error_tracking: { exceptionRateLimiterBucketSize: 10, exceptionRateLimiterRefillRate: 1 },
      disable_external_dependency_loading: true,
    });
  });

  it('cuts captured text at 255 characters and the user agent at 1,000', () => {
    const event = {
      event: '$autocapture',
      uuid: 'x',
      properties: {
        $el_text: 'a'.repeat(400),
        $raw_user_agent: 'u'.repeat(1500),
        $elements: [{ tag_name: 'button', $el_text: 'b'.repeat(300) }],
      },
    } as unknown as CaptureResult;
    const sent = options.before_send as (e: CaptureResult | null) => CaptureResult | null;
    const out = sent(event)!;
    expect((out.properties.$el_text as string).length).toBe(TEXT_MAX);
    expect((out.properties.$raw_user_agent as string).length).toBe(USER_AGENT_MAX);
    expect((out.properties.$elements as Array<{ $el_text: string }>)[0]!.$el_text.length).toBe(TEXT_MAX);
  });
});
