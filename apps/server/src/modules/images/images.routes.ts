import { contracts } from '@lumina/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { cachedJson } from '../../http/json-text.ts';
import { route } from '../../http/route.ts';
import { toDownloadCountView } from './images.mapper.ts';
import type { ImagesService, ListQuery, Viewer } from './images.service.ts';
import type { PublicCounters } from '../jobs/jobs.module.ts';

/** The gallery and public examples (docs/spec/SPEC.md §7). Handlers only map the wire to the service. */
export function imagesRoutes(
  app: FastifyInstance,
  images: ImagesService,
  counter: () => Promise<PublicCounters>,
): void {
  const auth = { preHandler: app.requireUser };
  /** A listing, from memory when it may be (ImagesService.listingScope), sent as the JSON it was. */
  const listing = (reply: FastifyReply, viewer: Viewer | undefined, query: ListQuery) =>
    cachedJson(reply, images.listings, images.listingScope(viewer, query), JSON.stringify(query), () =>
      images.list(viewer, query),
    );

  route(
    app,
    contracts.listImages,
    async ({ user, query }, reply) =>
      listing(reply, user, {
        saved: query.is_saved,
        favorites: query.is_favorite,
        examples: query.is_example,
        category: query.category,
        modelId: query.model,
        jobId: query.job_id,
        kind: query.kind,
        cursor: query.cursor,
        limit: query.limit,
      }),
    auth,
  );
  route(
    app,
    contracts.imagesByModel,
    async ({ user, params, query }, reply) =>
      listing(reply, user, { modelId: params.id, cursor: query.cursor, limit: query.limit }),
    auth,
  );
  route(
    app,
    contracts.imageCredentials,
    async ({ user, params }) => images.credentials(user, params.id),
    auth,
  );
  route(app, contracts.saveImage, async ({ user, params }) => images.save(user, params.id), auth);
  route(app, contracts.unsaveImage, async ({ user, params }) => images.save(user, params.id, false), auth);
  route(
    app,
    contracts.deleteImage,
    async ({ user, params }) => {
      await images.delete(user, params.id);
      return { deleted: true as const };
    },
    auth,
  );
  route(
    app,
    contracts.favoriteImage,
    async ({ user, params }) => images.favorite(user, params.id, true),
    auth,
  );
  route(
    app,
    contracts.unfavoriteImage,
    async ({ user, params }) => images.favorite(user, params.id, false),
    auth,
  );
  route(
    app,
    contracts.publishExample,
    async ({ user, params, body }) => images.publish(user, params.id, body.category),
    auth,
  );
  route(
    app,
    contracts.unpublishExample,
    async ({ user, params }) => {
      await images.unpublish(user, params.id);
      return { unpublished: true as const };
    },
    auth,
  );
  route(
    app,
    contracts.trackDownload,
    async ({ user, params }) => toDownloadCountView(await images.trackDownload(user, params.id)),
    auth,
  );

  route(app, contracts.listExamples, async ({ query }, reply) =>
    listing(reply, undefined, {
      examples: true,
      category: query.category,
      cursor: query.cursor,
      limit: query.limit,
    }),
  );
  route(app, contracts.exampleCategories, async () => ({ categories: await images.categories() }));
  route(app, contracts.counter, async () => {
    const c = await counter();
    return {
      count: c.images,
      images: c.images,
      models_trained: c.modelsTrained,
      shoots_delivered: c.shootsDelivered,
    };
  });
}
