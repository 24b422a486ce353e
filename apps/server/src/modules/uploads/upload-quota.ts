import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { uploadedBytes } from './uploads.repository.ts';

const KB = 1024;
const MB = 1024 * KB;
/** Sizes as people read them: "512 KB", "3.4 MB", "1024 MB". */
const readable = (bytes: number) =>
  bytes < MB ? `${Math.ceil(bytes / KB)} KB` : `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;

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
