import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import {
  StorageNotFoundError,
  contentDisposition,
  validateKey,
  validatePrefix,
  type Storage,
  type StorageBody,
  type StoredObject,
  type UrlOptions,
} from './storage.ts';

/** Where an S3-compatible bucket is and how to reach it (S3_* settings). */
export interface S3Settings {
  /** Omit for AWS; set for MinIO, R2, s3rver and other S3-compatible stores. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export interface S3StorageConfig extends S3Settings {
  /** Injected clock for presigning, so URL expiry is testable. */
  now?: () => Date;
}

export class S3Storage implements Storage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly now: () => Date;

  constructor(config: S3StorageConfig) {
    this.bucket = config.bucket;
    this.now = config.now ?? (() => new Date());
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    });
  }

  async put(key: string, body: StorageBody, opts: { contentType?: string } = {}) {
    validateKey(key);
    // No @aws-sdk/lib-storage multipart here: streams are buffered, which is fine for image-sized objects
    // and gives S3 the Content-Length it requires.
    const bytes = body instanceof Readable ? await toBuffer(body) : body;
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: opts.contentType }),
    );
    return { key, size: bytes.byteLength };
  }

  async get(key: string): Promise<StoredObject> {
    validateKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      // In Node the SDK's body is an http.IncomingMessage, i.e. a Readable.
      return { body: out.Body as Readable, size: out.ContentLength ?? 0, contentType: out.ContentType };
    } catch (error) {
      throw isNotFound(error) ? new StorageNotFoundError(key) : error;
    }
  }

  async exists(key: string) {
    validateKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string) {
    validateKey(key);
    // S3 already treats deleting a missing key as success.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string) {
    validatePrefix(prefix);
    let count = 0;
    let token: string | undefined;
    do {
      // Each listing page holds at most 1000 keys, which is also DeleteObjects' batch limit.
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (objects.length > 0) {
        const out = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } }),
        );
        // Quiet mode reports only failures; a partial delete must not pass as success.
        const failed = out.Errors ?? [];
        if (failed.length > 0) {
          throw new Error(
            `S3 refused to delete ${failed.length} object(s), first: ${failed[0]?.Key} ${failed[0]?.Code}`,
          );
        }
        count += objects.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return count;
  }

  async url(key: string, opts: UrlOptions) {
    validateKey(key);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: opts.downloadName ? contentDisposition(opts.downloadName) : undefined,
    });
    return getSignedUrl(this.client, command, { expiresIn: opts.expiresInSeconds, signingDate: this.now() });
  }

  async check() {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /** Releases the SDK's sockets; for tests and graceful shutdown. */
  close() {
    this.client.destroy();
  }
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

function isNotFound(error: unknown) {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
