import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { ModelCatalogue } from './model-catalogue.ts';
import { toModelInfo } from './models.mapper.ts';

/** The text-to-image models people can pick (the tools' models come with GET /api/tools). */
export function modelsRoutes(app: FastifyInstance, catalogue: Pick<ModelCatalogue, 'list'>): void {
  route(app, contracts.models, async () => ({
    models: catalogue.list('text-to-image').map(toModelInfo),
  }));
}
