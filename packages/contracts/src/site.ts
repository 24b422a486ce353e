import { z } from 'zod';
import { defineContract } from './contract.ts';

export const PublicConfig = z
  .object({
    analytics: z
      .object({
        posthog_key: z.string().describe('The PostHog project API key (public by design)'),
        posthog_host: z.string().describe('Where the browser sends events'),
      })
      .nullable()
      .describe('Product analytics; null when the operator configured none (nothing is loaded)'),
    referrals: z
      .object({
        reward_credits: z.int().describe('What a referrer gets per completed referral'),
        welcome_credits: z.int().describe('What the person referred gets with a first payment'),
        monthly_cap: z.int().describe('Rewarded referrals per referrer per calendar month'),
        settle_days: z.int().describe('Days rewards stay pending after the first payment'),
      })
      .describe('The referral programme’s terms, shown to signed-out visitors'),
  })
  .meta({ id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof PublicConfig>;

export const publicConfigContract = defineContract({
  method: 'GET',
  path: '/api/config',
  summary: "The server's browser-visible settings (an explicit allowlist)",
  tags: ['system'],
  auth: false,
  response: PublicConfig,
});

export const LEGAL_PAGES = ['terms', 'privacy'] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

export const LegalDocument = z
  .object({
    page: z.enum(LEGAL_PAGES),
    markdown: z.string().describe("The operator's text (Markdown; rendered without raw HTML)"),
    is_default: z.boolean().describe('True while the operator has not provided their own text'),
  })
  .meta({ id: 'LegalDocument' });
export type LegalDocument = z.infer<typeof LegalDocument>;

export const legalDocumentContract = defineContract({
  method: 'GET',
  path: '/api/legal/{page}',
  summary:
    'The Terms of Service or the Privacy Policy, as the operator wrote them (TERMS_FILE, PRIVACY_FILE)',
  tags: ['system'],
  auth: false,
  params: z.object({
    page: z.enum(LEGAL_PAGES, { error: 'page must be terms or privacy' }),
  }),
  response: LegalDocument,
});
