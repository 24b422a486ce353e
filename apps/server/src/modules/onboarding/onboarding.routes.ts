import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { Storage } from '../../adapters/storage/index.ts';
import { route } from '../../http/route.ts';
import { withTrainingUpload } from '../training-sets/training-form.ts';
import { toTrainingSetView, toUploadResultView } from '../training-sets/training-sets.mapper.ts';
import type { TrainingSetsService } from '../training-sets/training-sets.service.ts';
import { toOnboardingView } from './onboarding.mapper.ts';
import type { OnboardingService } from './onboarding.service.ts';

export interface OnboardingRouteDeps {
  onboarding: OnboardingService;
  trainingSets: TrainingSetsService;
  storage: Storage;
  /** UPLOAD_MAX_BYTES: the largest photo. */
  maxBytes: number;
}

/** Onboarding (issue 13): the answers, skipping, and the photos for the onboarding product. */
export function onboardingRoutes(app: FastifyInstance, deps: OnboardingRouteDeps): void {
  const auth = { preHandler: app.requireUser };
  const { onboarding, trainingSets, storage } = deps;

  route(
    app,
    contracts.onboarding,
    async (request) => toOnboardingView(await onboarding.get(request.user.id)),
    auth,
  );

  route(
    app,
    contracts.submitOnboarding,
    async (request) => toOnboardingView(await onboarding.submit(request.user.id, request.body)),
    auth,
  );

  route(
    app,
    contracts.skipOnboarding,
    async (request) => toOnboardingView(await onboarding.skip(request.user.id)),
    auth,
  );

  // The same upload as POST /api/upload_train_images: same checks, refusals, quota and zip handling;
  // the new set waits (pending) until a purchase or a training uses it.
  route(
    app,
    contracts.uploadOnboardingImages,
    async (request) => {
      const limits = { maxPhotoBytes: deps.maxBytes, maxZipBytes: trainingSets.maxZipBytes };
      const outcome = await withTrainingUpload(request, limits, (upload) =>
        trainingSets.create(request.user.id, upload),
      );
      return toUploadResultView(storage, outcome);
    },
    auth,
  );

  route(
    app,
    contracts.pendingImageSets,
    async (request) => {
      const sets = await onboarding.pendingSets(request.user.id);
      return {
        sets: await Promise.all(sets.map(({ set, photos }) => toTrainingSetView(storage, set, photos))),
      };
    },
    auth,
  );
}
