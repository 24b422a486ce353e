import { z } from 'zod';
import { defineContract } from './contract.ts';
import { text } from './text.ts';

/**
 * A stored file behind a short-lived signed URL (local-disk storage; S3 hands out presigned URLs
 * instead). The signature is the authorisation: the server only signs URLs for files the asking user
 * may read.
 */
export const signedFileContract = defineContract({
  method: 'GET',
  path: '/api/files/*',
  summary: 'Download a stored file through a signed, expiring URL',
  tags: ['files'],
  auth: false,
  params: z.object({ '*': text().min(1).max(512) }),
  query: z.object({
    expires: text().regex(/^\d{1,12}$/, 'must be a unix time in seconds'),
    signature: text().regex(/^[0-9a-f]{64}$/, 'must be a 64-character hex signature'),
    download: text().max(200).optional(),
  }),
  response: z.unknown().describe('The file bytes, with its content type'),
  responses: {
    206: z
      .unknown()
      .describe('The requested byte range (a `Range: bytes=a-b` request, e.g. from a video player)'),
    416: z.unknown().describe('The range starts past the end of the file'),
  },
});
