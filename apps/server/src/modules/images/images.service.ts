import type { ImageCredentialsView, ImageView } from '@lumina/contracts';
import type { Storage } from '../../adapters/storage/index.ts';
import { cacheSignedUrls, type UrlSigner } from '../../adapters/storage/signed-url-cache.ts';
import type { Database } from '../../db/client.ts';
import { AppError, notFound } from '../../errors.ts';
import { credentialsView } from './credentials-view.ts';
import { deleteImageFiles } from './image-files.ts';
import * as repo from './images.repository.ts';
import { decodeCursor, encodeCursor } from '../../http/page-cursor.ts';
import { IMAGE_URL_REUSE_SECONDS, toImageView } from './images.mapper.ts';
import { EXAMPLES_SCOPE, type ListingCache } from './listing-cache.ts';

export interface Viewer {
  id: string;
}

export interface ListQuery {
  saved?: boolean;
  favorites?: boolean;
  examples?: boolean;
  category?: string;
  modelId?: string;
  jobId?: string;
  kind?: string;
  cursor?: string;
  limit: number;
}

/**
 * The gallery: a person's own images, their favourites, and public examples. Another person's
 * private image answers exactly like a missing one (404), so ids reveal nothing.
 */
export class ImagesService {
  private readonly urls: UrlSigner;

  constructor(
    private readonly db: Database,
    private readonly storage: Storage,
    /** Operators may unpublish anyone's example (modules/users decides who is one). */
    private readonly isOperator: (userId: string) => Promise<boolean>,
    /** Listings in memory; every change made here drops the listings it touches before answering. */
    readonly listings: ListingCache,
  ) {
    this.urls = cacheSignedUrls(storage, { reuseSeconds: IMAGE_URL_REUSE_SECONDS });
  }

  /**
   * Which cached listings this one may be served from: a person's own images (`is_own`, their own
   * favourite marks) change only with that person's rows, public examples seen signed out only with
   * the examples. Lists that mix in other people's rows for a viewer (favourites, examples signed in)
   * are read from the database each time.
   */
  listingScope(viewer: Viewer | undefined, query: ListQuery): string | undefined {
    if (query.examples) return viewer ? undefined : EXAMPLES_SCOPE;
    if (query.favorites) return undefined;
    return viewer?.id;
  }

  async list(viewer: Viewer | undefined, query: ListQuery) {
    const filter: repo.ImageFilter = query.examples
      ? { examples: true, category: query.category, modelId: query.modelId }
      : {
          ownerId: query.favorites ? undefined : viewer?.id,
          favoritesOf: query.favorites ? viewer?.id : undefined,
          saved: query.saved,
          modelId: query.modelId,
          jobId: query.jobId,
          kind: query.kind,
        };
    if (!query.examples && !viewer) throw new AppError('UNAUTHORISED', 'Sign in to see your images.');
    // One extra row tells whether there is a next page without a count query.
    const rows = await repo.listImages(
      this.db,
      viewer?.id,
      filter,
      decodeCursor(query.cursor),
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > query.limit && last
        ? encodeCursor((query.examples ? last.publishedAt : last.createdAt) ?? last.createdAt, last.id)
        : null;
    return {
      items: await Promise.all(page.map((row) => toImageView(this.urls, row, viewer?.id))),
      next_cursor: nextCursor,
    };
  }

  async save(viewer: Viewer, id: string, saved = true): Promise<ImageView> {
    const row = await this.own(viewer, id);
    await repo.updateImage(this.db, id, { isSaved: saved });
    this.changed(row);
    return this.view(viewer, id);
  }

  async delete(viewer: Viewer, id: string): Promise<void> {
    await this.own(viewer, id);
    const row = await repo.deleteImage(this.db, id);
    if (row) this.changed(row);
    // Rows first: a failure deleting files leaves orphans (harmless), never rows pointing at nothing.
    if (row) await deleteImageFiles(this.storage, row);
  }

  async favorite(viewer: Viewer, id: string, on: boolean): Promise<ImageView> {
    await this.visible(viewer, id);
    if (on) await repo.addFavorite(this.db, viewer.id, id);
    else await repo.removeFavorite(this.db, viewer.id, id);
    // Favourite marks show only in the viewer's own listings, which app.ts's onSend hook drops for
    // every write the viewer makes.
    return this.view(viewer, id);
  }

  async publish(viewer: Viewer, id: string, category: string): Promise<ImageView> {
    const row = await this.own(viewer, id);
    await repo.updateImage(this.db, id, {
      isExample: true,
      category,
      publishedAt: new Date(),
      isSaved: true,
    });
    this.changed({ ...row, isExample: true });
    return this.view(viewer, id);
  }

  async unpublish(viewer: Viewer, id: string): Promise<void> {
    const image = await repo.findImage(this.db, id);
    if (!image) throw notFound('This image');
    if (image.userId !== viewer.id && !(image.isExample && (await this.isOperator(viewer.id))))
      throw notFound('This image');
    await repo.updateImage(this.db, id, { isExample: false, category: null, publishedAt: null });
    this.changed(image);
  }

  /** The C2PA content credentials read back from the stored full image (owner only; others: 404). */
  async credentials(viewer: Viewer, id: string): Promise<ImageCredentialsView> {
    const row = await this.own(viewer, id);
    return credentialsView(this.storage, row.storageKey);
  }

  async trackDownload(viewer: Viewer, id: string): Promise<number> {
    const row = await this.visible(viewer, id);
    const count = await repo.incrementDownloads(this.db, id);
    this.changed(row);
    return count;
  }

  /**
   * Drops the listings a changed image appears in, in this process, before the change is answered
   * (other processes hear of it from the database: see listing-cache.ts).
   */
  private changed(row: { userId: string; isExample: boolean }): void {
    this.listings.changed(row.userId);
    if (row.isExample) this.listings.changed(EXAMPLES_SCOPE);
  }

  categories() {
    return repo.exampleCategories(this.db);
  }

  private async view(viewer: Viewer, id: string): Promise<ImageView> {
    const row = await repo.findImage(this.db, id, viewer.id);
    if (!row) throw notFound('This image');
    return toImageView(this.urls, row, viewer.id);
  }

  private async own(viewer: Viewer, id: string) {
    const row = await repo.findImage(this.db, id);
    if (!row || row.userId !== viewer.id) throw notFound('This image');
    return row;
  }

  private async visible(viewer: Viewer, id: string) {
    const row = await repo.findImage(this.db, id);
    if (!row || (row.userId !== viewer.id && !row.isExample)) throw notFound('This image');
    return row;
  }
}
