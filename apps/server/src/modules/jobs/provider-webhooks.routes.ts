import { contracts } from '@lumina/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FalWebhookVerifier } from '../../adapters/providers/fal/fal.webhook.ts';
import type { ReplicateWebhookVerifier } from '../../adapters/providers/replicate/replicate.webhook.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../http/route.ts';
import type { JobsService } from './jobs.service.ts';

export interface ProviderWebhookDeps {
  jobs: Pick<JobsService, 'providerFinished'>;
  fal?: FalWebhookVerifier;
  replicate?: ReplicateWebhookVerifier;
}

const invalid = () => new AppError('VALIDATION_FAILED', 'The webhook signature is not valid.');

/**
 * fal.ai and Replicate webhooks. The signature is checked on the raw body; a verified "finished"
 * event queues a sync job that re-fetches the result from the provider (the webhook is a hint, not
 * the truth). Answers 2xx fast; redeliveries are harmless because a job completes at most once.
 */
export async function providerWebhookRoutes(app: FastifyInstance, deps: ProviderWebhookDeps) {
  await app.register(async (scope) => {
    // Signatures cover the exact bytes sent, so these routes keep the body raw. The inherited JSON
    // parser must go too: a '*' parser only catches types no other parser claims, and vendors send
    // application/json (with it, every genuine webhook failed verification against an empty body).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 2 * 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    const rawBody = (request: FastifyRequest) =>
      Buffer.isBuffer(request.body) ? request.body : Buffer.from('');

    const sync = (provider: string, requestId: string) => deps.jobs.providerFinished(provider, requestId);

    route(scope, contracts.falWebhook, async (request) => {
      if (!deps.fal) throw new AppError('NOT_FOUND', 'fal.ai webhooks are not configured.');
      const event = await deps.fal.verify(request.headers, rawBody(request)).catch(() => {
        throw invalid();
      });
      if (event.status === 'OK') await sync('fal', event.requestId);
      return { received: true as const };
    });

    route(scope, contracts.replicateWebhook, async (request) => {
      if (!deps.replicate) throw new AppError('NOT_FOUND', 'Replicate webhooks are not configured.');
      let event;
      try {
        event = deps.replicate.verify(request.headers, rawBody(request));
      } catch {
        throw invalid();
      }
      if (event.status === 'succeeded') await sync('replicate', event.predictionId);
      return { received: true as const };
    });
  });
}
