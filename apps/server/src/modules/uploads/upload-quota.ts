import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';

const KB = 1024;
const MB = 1024 * KB;
/** Sizes as people read them: "512 KB", "3.4 MB", "1024 MB". */
const readable = (bytes: number) =>
  bytes < MB ? `${Math.ceil(bytes / KB)} KB` : `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;

/** Bytes of a person's stored uploads (images of kind "upload": the gallery's and the tools' alike). */
export async function uploadedBytes(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${images.bytes}), 0)`.mapWith(Number) })
    .from(images)
    .where(and(eq(images.userId, userId), eq(images.kind, 'upload')));
  return row?.total ?? 0;
}

/**
 * UPLOAD_QUOTA_BYTES: refuses `adding` more bytes when the person's uploads would pass `quota`.
 * 413, like a file that is too large, with what is used and how to make room.
 */
export async function checkUploadQuota(
  db: DbOrTx,
  userId: string,
  adding: number,
  quota: number,
): Promise<void> {
  const used = await uploadedBytes(db, userId);
  if (used + adding <= quota) return;
  throw new AppError(
    'PAYLOAD_TOO_LARGE',
    `Your uploads use ${readable(used)} of your ${readable(quota)} of storage, and this one needs ${readable(adding)} more. Delete some uploads to make room.`,
  );
}

/** Serialises one person's quota check and insert across processes, until the transaction ends. */
export async function lockUploadQuota(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`upload-quota:${userId}`}))`);
}
