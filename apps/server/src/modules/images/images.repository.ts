import { and, count, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { imageFavorites, images, type ImageRow } from '../../db/schema/index.ts';

/** Drizzle queries for images; each takes the database or an open transaction. */

export type NewImage = typeof images.$inferInsert;
export type ImageWithFavorite = ImageRow & { isFavorite: boolean };

export async function insertImages(db: DbOrTx, rows: NewImage[]): Promise<void> {
  if (rows.length > 0) await db.insert(images).values(rows);
}

export interface ImageFilter {
  /** Whose images (undefined for public examples). */
  ownerId?: string;
  saved?: boolean;
  favoritesOf?: string;
  examples?: boolean;
  category?: string;
  modelId?: string;
  jobId?: string;
  /** Only this kind; without it, uploads (inputs people gave the tools) are left out of listings. */
  kind?: string;
}

import type { Cursor } from '../../http/page-cursor.ts';

/**
 * One page, newest first, by keyset (time, id) so deep pages cost the same as the first. Examples are
 * ordered by when they were published; everything else by creation.
 *
 * The query is built once per filter shape (which filters are present) as a named prepared statement
 * and then only executed with values: building it with drizzle on every request was the largest
 * single cost of the gallery listing under load (bench/gallery.bench.ts), and a prepared statement
 * also spares PostgreSQL re-parsing it.
 */
export async function listImages(
  db: DbOrTx,
  viewerId: string | undefined,
  filter: ImageFilter,
  cursor: Cursor | undefined,
  limit: number,
): Promise<ImageWithFavorite[]> {
  const shape: ListingShape = {
    viewer: viewerId !== undefined,
    owner: filter.ownerId !== undefined,
    saved: Boolean(filter.saved),
    favoritesOf: filter.favoritesOf !== undefined,
    examples: Boolean(filter.examples),
    category: filter.category !== undefined,
    modelId: filter.modelId !== undefined,
    jobId: filter.jobId !== undefined,
    kind: filter.kind !== undefined,
    cursor: cursor !== undefined,
  };
  const rows = await preparedListing(db, shape).execute({
    viewerId,
    ownerId: filter.ownerId,
    favoritesOf: filter.favoritesOf,
    category: filter.category,
    modelId: filter.modelId,
    jobId: filter.jobId,
    kind: filter.kind,
    cursorAt: cursor?.at.toISOString(),
    cursorId: cursor?.id,
    limit,
  });
  return rows.map((r) => ({ ...r.image, isFavorite: Boolean(r.isFavorite) }));
}

/** Which filters a listing uses; each combination is one prepared statement. */
interface ListingShape {
  viewer: boolean;
  owner: boolean;
  saved: boolean;
  favoritesOf: boolean;
  examples: boolean;
  category: boolean;
  modelId: boolean;
  jobId: boolean;
  kind: boolean;
  cursor: boolean;
}

type PreparedListing = ReturnType<typeof prepareListing>;
/** Per database handle (a statement belongs to the handle it was prepared on); at most 2^10 shapes. */
const preparedListings = new WeakMap<DbOrTx, Map<string, PreparedListing>>();

function preparedListing(db: DbOrTx, shape: ListingShape): PreparedListing {
  let byShape = preparedListings.get(db);
  if (!byShape) preparedListings.set(db, (byShape = new Map()));
  const key = Object.entries(shape)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .join('_');
  let statement = byShape.get(key);
  if (!statement) byShape.set(key, (statement = prepareListing(db, shape, `list_images_${key || 'all'}`)));
  return statement;
}

function prepareListing(db: DbOrTx, shape: ListingShape, name: string) {
  const p = sql.placeholder;
  const orderColumn = shape.examples ? images.publishedAt : images.createdAt;
  const conditions: SQL[] = [];
  if (shape.owner) conditions.push(eq(images.userId, p('ownerId')));
  if (shape.saved) conditions.push(eq(images.isSaved, true));
  if (shape.examples) conditions.push(eq(images.isExample, true));
  if (shape.category) conditions.push(eq(images.category, p('category')));
  if (shape.modelId) conditions.push(eq(images.modelId, p('modelId')));
  if (shape.jobId) conditions.push(eq(images.jobId, p('jobId')));
  conditions.push(shape.kind ? eq(images.kind, p('kind')) : ne(images.kind, 'upload'));
  if (shape.favoritesOf) {
    conditions.push(
      sql`exists (select 1 from ${imageFavorites} f where f.image_id = ${images.id} and f.user_id = ${p('favoritesOf')})`,
    );
  }
  if (shape.cursor)
    conditions.push(
      sql`(${orderColumn}, ${images.id}) < (${p('cursorAt')}::timestamptz, ${p('cursorId')}::uuid)`,
    );
  const favorite = shape.viewer
    ? sql<boolean>`exists (select 1 from ${imageFavorites} f where f.image_id = ${images.id} and f.user_id = ${p('viewerId')})`
    : sql<boolean>`false`;
  return (
    db
      .select({ image: images, isFavorite: favorite })
      .from(images)
      .where(and(...conditions))
      // `desc nulls last` to match the indexes exactly: drizzle declares `.desc()` index columns as
      // DESC NULLS LAST, while a plain DESC means NULLS FIRST, an order those indexes cannot give, so
      // PostgreSQL scanned every row and sorted (seen in bench/gallery.bench.ts). The columns are
      // NOT NULL here (published_at within examples), so the order itself is unchanged.
      .orderBy(sql`${orderColumn} desc nulls last`, sql`${images.id} desc nulls last`)
      .limit(p('limit'))
      .prepare(name)
  );
}

export async function findImage(
  db: DbOrTx,
  id: string,
  viewerId?: string,
): Promise<ImageWithFavorite | undefined> {
  const favorite = viewerId
    ? sql<boolean>`exists (select 1 from ${imageFavorites} f where f.image_id = ${images.id} and f.user_id = ${viewerId})`
    : sql<boolean>`false`;
  const [row] = await db
    .select({ image: images, isFavorite: favorite })
    .from(images)
    .where(eq(images.id, id));
  return row ? { ...row.image, isFavorite: Boolean(row.isFavorite) } : undefined;
}

export async function updateImage(db: DbOrTx, id: string, set: Partial<NewImage>): Promise<void> {
  await db.update(images).set(set).where(eq(images.id, id));
}

export async function deleteImage(db: DbOrTx, id: string): Promise<ImageRow | undefined> {
  const [row] = await db.delete(images).where(eq(images.id, id)).returning();
  return row;
}

export async function addFavorite(db: DbOrTx, userId: string, imageId: string): Promise<void> {
  await db.insert(imageFavorites).values({ userId, imageId }).onConflictDoNothing();
}

export async function removeFavorite(db: DbOrTx, userId: string, imageId: string): Promise<void> {
  await db
    .delete(imageFavorites)
    .where(and(eq(imageFavorites.userId, userId), eq(imageFavorites.imageId, imageId)));
}

export async function incrementDownloads(db: DbOrTx, id: string): Promise<number> {
  const [row] = await db
    .update(images)
    .set({ downloadCount: sql`${images.downloadCount} + 1` })
    .where(eq(images.id, id))
    .returning({ n: images.downloadCount });
  return row?.n ?? 0;
}

export async function exampleCategories(db: DbOrTx): Promise<Array<{ name: string; count: number }>> {
  const rows = await db
    .select({ name: images.category, count: count() })
    .from(images)
    .where(and(eq(images.isExample, true), sql`${images.category} is not null`))
    .groupBy(images.category)
    .orderBy(desc(count()), images.category);
  return rows.map((r) => ({ name: r.name!, count: r.count }));
}

export const favoriteOf = (userId: string) =>
  sql<boolean>`exists (select 1 from ${imageFavorites} where ${imageFavorites.imageId} = ${images.id} and ${imageFavorites.userId} = ${userId})`;

/** The owner's images among `ids` (another person's image is simply not returned). */
export async function ownImagesByIds(
  db: DbOrTx,
  userId: string,
  ids: string[],
): Promise<ImageWithFavorite[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ image: images, isFavorite: favoriteOf(userId) })
    .from(images)
    .where(and(eq(images.userId, userId), inArray(images.id, ids)));
  return rows.map((r) => ({ ...r.image, isFavorite: Boolean(r.isFavorite) }));
}
