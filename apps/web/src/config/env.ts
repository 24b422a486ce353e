import { z } from 'zod';

/**
 * Browser-visible settings: an explicit allowlist, parsed once at boot.
 * This is the only module that reads `import.meta.env`.
 */
const EnvSchema = z.object({
  /** Absolute URL or path prefix of the API; empty or unset means same origin. */
  VITE_API_BASE: z
    .union([z.url({ protocol: /^https?$/ }), z.string().regex(/^\/\S*$/), z.literal('')])
    .optional()
    .transform((value) => (value ?? '').replace(/\/+$/, '')),
  /**
   * Where the operator's set-up hint links for provider keys. By default the README shipped with the
   * web build (the build copies it to /README.md), at its "AI providers" section.
   */
  VITE_PROVIDER_DOCS_URL: z
    .union([z.url({ protocol: /^https?$/ }), z.string().regex(/^\/\S*$/), z.literal('')])
    .optional()
    .transform((value) => value || '/README.md#ai-providers'),
  /** PostHog project key and host baked in at build time; unset, the server's GET /api/config decides. */
  VITE_POSTHOG_KEY: z.string().trim().min(1).optional(),
  VITE_POSTHOG_HOST: z.url({ protocol: /^https?$/ }).optional(),
});

export interface Env {
  apiBase: string;
  providerDocsUrl: string;
  /** Product analytics fixed at build time (both set), or undefined. */
  posthog?: { key: string; host: string };
}

export function parseEnv(source: Record<string, unknown>): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    throw new Error(`Invalid web configuration:\n${z.prettifyError(result.error)}`);
  }
  const { VITE_POSTHOG_KEY: key, VITE_POSTHOG_HOST: host } = result.data;
  return Object.freeze({
    apiBase: result.data.VITE_API_BASE,
    providerDocsUrl: result.data.VITE_PROVIDER_DOCS_URL,
    posthog: key ? { key, host: (host ?? 'https://us.i.posthog.com').replace(/\/+$/, '') } : undefined,
  });
}

export const env: Env = parseEnv(import.meta.env);
