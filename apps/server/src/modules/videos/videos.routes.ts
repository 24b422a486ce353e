import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { VideosService } from './videos.service.ts';

/** The person's videos: list, save, unsave, delete, and their content credentials. */
export function videosRoutes(app: FastifyInstance, videos: VideosService): void {
  const auth = { preHandler: app.requireUser };
  route(app, contracts.videos, async ({ user, query }) => videos.list(user.id, query), auth);
  route(
    app,
    contracts.saveVideo,
    async ({ user, params }) => videos.setSaved(user.id, params.id, true),
    auth,
  );
  route(
    app,
    contracts.unsaveVideo,
    async ({ user, params }) => videos.setSaved(user.id, params.id, false),
    auth,
  );
  route(
    app,
    contracts.videoCredentials,
    async ({ user, params }) => videos.credentials(user.id, params.id),
    auth,
  );
  route(
    app,
    contracts.deleteVideo,
    async ({ user, params }) => {
      await videos.delete(user.id, params.id);
      return { deleted: true as const };
    },
    auth,
  );
}
