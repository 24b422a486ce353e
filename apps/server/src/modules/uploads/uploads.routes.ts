import { contracts, UploadForm } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import type { Storage } from '../../adapters/storage/index.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../http/route.ts';
import { toImageView } from '../images/images.mapper.ts';
import { readForm, type MultipartForm } from './multipart.ts';
import { previewJpeg } from './normalise.ts';
import type { UploadsService } from './uploads.service.ts';

export interface UploadRouteDeps {
  uploads: UploadsService;
  storage: Storage;
  maxBytes: number;
  maxPixels: number;
  heicMaxPixels?: number;
}

const FILE_FIELD = UploadForm.files[0];

function theFile(form: Pick<MultipartForm, 'files'>) {
  const file = form.files[FILE_FIELD];
  if (!file) throw new AppError('VALIDATION_FAILED', `Add the image as the "${FILE_FIELD}" file.`);
  return file;
}

/** Uploading an image to the gallery, and previews of uploads a browser cannot show (docs/spec/SPEC.md §7). */
export function uploadsRoutes(app: FastifyInstance, deps: UploadRouteDeps): void {
  const auth = { preHandler: app.requireUser };
  const form = (request: Parameters<typeof readForm>[0]) => readForm(request, UploadForm, deps.maxBytes);

  route(
    app,
    contracts.uploadImage,
    async (request) => {
      const file = theFile(await form(request));
      const row = await deps.uploads.store(request.user.id, file, FILE_FIELD);
      return toImageView(deps.storage, row, request.user.id);
    },
    auth,
  );

  route(
    app,
    contracts.convertPreview,
    async (request, reply) => {
      const file = theFile(await form(request));
      let jpeg: Buffer;
      try {
        jpeg = await previewJpeg(file.bytes, {
          owner: request.user.id,
          maxPixels: deps.maxPixels,
          heicMaxPixels: deps.heicMaxPixels,
        });
      } catch (err) {
        throw err instanceof AppError
          ? new AppError(err.code, `${FILE_FIELD}: ${err.userMessage}`, {
              cause: err,
              retryAfterSeconds: err.retryAfterSeconds,
            })
          : err;
      }
      // A Buffer is sent as it is (no serialiser); the preview is of this request's file only.
      reply.type('image/jpeg').header('cache-control', 'no-store');
      return jpeg;
    },
    auth,
  );
}
