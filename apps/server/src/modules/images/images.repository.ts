import { and, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
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
 */
export async function listImages(
  db: DbOrTx,
  viewerId: string | undefined,
  filter: ImageFilter,
  cursor: Cursor | undefined,
  limit: number,
): Promise<ImageWithFavorite[]> {
  const orderColumn = filter.examples ? images.publishedAt : images.createdAt;
  const conditions: SQL[] = [];
  if (filter.ownerId) conditions.push(eq(images.userId, filter.ownerId));
  if (filter.saved) conditions.push(eq(images.isSaved, true));
  if (filter.examples) conditions.push(eq(images.isExample, true));
  if (filter.category) conditions.push(eq(images.category, filter.category));
  if (filter.modelId) conditions.push(eq(images.modelId, filter.modelId));
  if (filter.jobId) conditions.push(eq(images.jobId, filter.jobId));
  conditions.push(filter.kind ? eq(images.kind, filter.kind) : ne(images.kind, 'upload'));
  if (filter.favoritesOf) {
    conditions.push(
      sql`exists (select 1 from ${imageFavorites} f where f.image_id = ${images.id} and f.user_id = ${filter.favoritesOf})`,
    );
  }
  if (cursor)
    conditions.push(
      sql`(${orderColumn}, ${images.id}) < (${cursor.at.toISOString()}::timestamptz, ${cursor.id}::uuid)`,
    );
  const favorite = viewerId
    ? sql<boolean>`exists (select 1 from ${imageFavorites} f where f.image_id = ${images.id} and f.user_id = ${viewerId})`
    : sql<boolean>`false`;
  const rows = await db
    .select({ image: images, isFavorite: favorite })
    .from(images)
    .where(and(...conditions))
    // `desc nulls last` to match the indexes exactly: drizzle declares `.desc()` index columns as
    // DESC NULLS LAST, while a plain DESC means NULLS FIRST, an order those indexes cannot give, so
    // PostgreSQL scanned every row and sorted (seen in bench/gallery.bench.ts). The columns are
    // NOT NULL here (published_at within examples), so the order itself is unchanged.
    .orderBy(sql`${orderColumn} desc nulls last`, sql`${images.id} desc nulls last`)
    .limit(limit);
  return rows.map((r) => ({ ...r.image, isFavorite: Boolean(r.isFavorite) }));
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
