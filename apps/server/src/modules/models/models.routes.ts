import { contracts } from '@lumina/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { route } from '../../http/route.ts';
import { readAccessToken } from '../auth/session.transport.ts';
import { isPersonalModel, type ModelCatalogue, type PersonalModelSource } from './model-catalogue.ts';
import { toModelInfo, toTrainInfo } from './models.mapper.ts';

/**
 * The models people can pick: text-to-image, the trainers (with their step bounds), and for a signed-in
 * caller their own ready trained models last (the tools' models come with GET /api/tools).
 */
export function modelsRoutes(
  app: FastifyInstance,
  deps: {
    catalogue: Pick<ModelCatalogue, 'list' | 'sharedTextToImage'>;
    own: PersonalModelSource;
  },
): void {
  const { catalogue, own } = deps;
  // Public, but a caller who sends a session also sees their own models; a session that does not
  // verify is simply anonymous here.
  const identify = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!readAccessToken(request)) return;
    await app.requireUser(request, reply).catch((err: unknown) => {
      if (!(err instanceof AppError)) throw err;
    });
  };

  route(
    app,
    contracts.models,
    async (request) => {
      const userId = (request.user as { id: string } | null)?.id;
      const mine = userId ? await own.forUser(userId) : [];
      const viewer = { userId, own: mine };
      const trainers = catalogue.list('train').flatMap((m) => {
        const base = catalogue.sharedTextToImage(m.baseModelId);
        return base ? [toTrainInfo(m, base)] : [];
      });
      const textToImage = catalogue.list('text-to-image', viewer);
      const shared = textToImage.filter((m) => !isPersonalModel(m));
      const personal = textToImage.filter((m) => isPersonalModel(m));
      return { models: [...shared.map(toModelInfo), ...trainers, ...personal.map(toModelInfo)] };
    },
    { preHandler: identify },
  );
}
