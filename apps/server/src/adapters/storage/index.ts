import { DiskStorage } from './disk.storage.ts';
import { S3Storage, type S3Settings } from './s3.storage.ts';
import type { Storage } from './storage.ts';

export * from './storage.ts';
export { DiskStorage, signFileUrl, verifyFileSignature } from './disk.storage.ts';
export { S3Storage, type S3Settings } from './s3.storage.ts';

export interface StorageConfig {
  /** Local directory for disk mode; the app passes `<DATA_DIR>/files`. */
  root: string;
  /** Signs disk-mode file URLs; unused with S3, whose URLs are presigned by the SDK. */
  signingSecret: string;
  /** When set, files go to this S3-compatible bucket instead of the local disk. */
  s3: S3Settings | undefined;
}

export function createStorage(config: StorageConfig): Storage {
  return config.s3
    ? new S3Storage(config.s3)
    : new DiskStorage({ root: config.root, signingSecret: config.signingSecret });
}
