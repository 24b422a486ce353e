import { readFileSync } from 'node:fs';
import { contracts, type LegalPage } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { route } from '../../http/route.ts';
import { toLegalDocumentView, toPublicConfig } from './site.mapper.ts';

const DEFAULTS: Record<LegalPage, URL> = {
  terms: new URL('./defaults/terms.md', import.meta.url),
  privacy: new URL('./defaults/privacy.md', import.meta.url),
};

export interface LegalTexts {
  terms: { markdown: string; isDefault: boolean };
  privacy: { markdown: string; isDefault: boolean };
}

/**
 * The legal texts, read once at start-up: the operator's Markdown files (TERMS_FILE, PRIVACY_FILE), or
 * the default text naming this site. A configured file that cannot be read stops start-up with its path.
 */
export function loadLegalTexts(config: Pick<Config, 'legal' | 'publicUrl'>): LegalTexts {
  const site = new URL(config.publicUrl).host;
  const read = (page: LegalPage, file: string | undefined) => {
    if (!file) {
      return { markdown: readFileSync(DEFAULTS[page], 'utf8').replaceAll('{{site}}', site), isDefault: true };
    }
    try {
      return { markdown: readFileSync(file, 'utf8'), isDefault: false };
    } catch (err) {
      throw new Error(
        `${page === 'terms' ? 'TERMS_FILE' : 'PRIVACY_FILE'} (${file}) cannot be read: ${(err as Error).message}`,
        { cause: err },
      );
    }
  };
  return {
    terms: read('terms', config.legal.termsFile),
    privacy: read('privacy', config.legal.privacyFile),
  };
}

/** Browser-visible settings and the legal pages: public, no session needed. */
export function siteRoutes(
  app: FastifyInstance,
  config: Config,
  legal: LegalTexts = loadLegalTexts(config),
): void {
  const publicConfig = toPublicConfig(config.analytics, config.referrals);
  route(app, contracts.publicConfig, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return publicConfig;
  });
  route(app, contracts.legalDocument, async ({ params }, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return toLegalDocumentView(params.page, legal[params.page]);
  });
}
