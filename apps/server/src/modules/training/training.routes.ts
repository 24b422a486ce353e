import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { toJobAccepted } from '../jobs/jobs.mapper.ts';
import type { TrainingService } from './training.service.ts';

/** Training (a paid job: progress and cancel are the jobs module's routes) and the person's models. */
export function trainingRoutes(app: FastifyInstance, training: TrainingService): void {
  const auth = { preHandler: app.requireUser };

  route(
    app,
    contracts.trainModel,
    async ({ user, body }) => {
      const started = await training.train(user.id, body);
      return { ...toJobAccepted(started), model: started.model };
    },
    auth,
  );

  route(
    app,
    contracts.trainReplicate,
    async ({ user, body }) => {
      const started = await training.train(user.id, body, 'replicate');
      return { ...toJobAccepted(started), model: started.model };
    },
    auth,
  );

  route(app, contracts.trainedModels, async ({ user }) => ({ models: await training.list(user.id) }), auth);

  route(
    app,
    contracts.renameTrainedModel,
    async ({ user, params, body }) => training.rename(user.id, params.id, body.name),
    auth,
  );

  route(
    app,
    contracts.deleteTrainedModel,
    async ({ user, params }) => {
      await training.delete(user.id, params.id);
      return { deleted: true as const };
    },
    auth,
  );
}
