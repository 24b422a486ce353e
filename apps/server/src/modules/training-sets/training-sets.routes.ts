import { contracts } from '@lumina/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Storage } from '../../adapters/storage/index.ts';
import { route } from '../../http/route.ts';
import { withTrainingUpload, type TrainingUpload } from './training-form.ts';
import { toTrainingSetView, toUploadResultView } from './training-sets.mapper.ts';
import type { TrainingSetsService } from './training-sets.service.ts';

export interface TrainingSetRouteDeps {
  trainingSets: TrainingSetsService;
  storage: Storage;
  /** UPLOAD_MAX_BYTES: the largest photo. */
  maxBytes: number;
}

/** Training sets: upload, extend, list, read and delete a person's training photos (issue 12). */
export function trainingSetsRoutes(app: FastifyInstance, deps: TrainingSetRouteDeps): void {
  const auth = { preHandler: app.requireUser };
  const { trainingSets, storage } = deps;

  const limits = { maxPhotoBytes: deps.maxBytes, maxZipBytes: trainingSets.maxZipBytes };
  const withUpload = <T>(request: FastifyRequest, use: (upload: TrainingUpload) => Promise<T>) =>
    withTrainingUpload(request, limits, use);

  route(
    app,
    contracts.uploadTrainingPhotos,
    async (request) => {
      const outcome = await withUpload(request, (upload) => trainingSets.create(request.user.id, upload));
      return toUploadResultView(storage, outcome);
    },
    auth,
  );

  route(
    app,
    contracts.extendTrainingSet,
    async (request) => {
      const outcome = await withUpload(request, (upload) =>
        trainingSets.extend(request.user.id, request.params.id, upload),
      );
      return toUploadResultView(storage, outcome);
    },
    auth,
  );

  route(
    app,
    contracts.listTrainingSets,
    async (request) => {
      const sets = await trainingSets.list(request.user.id);
      return {
        sets: await Promise.all(sets.map(({ set, photos }) => toTrainingSetView(storage, set, photos))),
      };
    },
    auth,
  );

  route(
    app,
    contracts.trainingSet,
    async (request) => {
      const { set, photos } = await trainingSets.get(request.user.id, request.params.id);
      return toTrainingSetView(storage, set, photos);
    },
    auth,
  );

  route(
    app,
    contracts.deleteTrainingPhoto,
    async (request) => {
      const { set, photos } = await trainingSets.removePhoto(
        request.user.id,
        request.params.id,
        request.params.photo_id,
      );
      return toTrainingSetView(storage, set, photos);
    },
    auth,
  );

  route(
    app,
    contracts.deleteTrainingSet,
    async (request) => {
      await trainingSets.remove(request.user.id, request.params.id);
      return { deleted: true as const };
    },
    auth,
  );
}
