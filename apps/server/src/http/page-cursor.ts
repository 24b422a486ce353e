import { z } from 'zod';
import { AppError } from '../errors.ts';

/**
 * The one page cursor of the keyset-paged lists (images, examples, videos): opaque to clients,
 * base64url of "<ISO time>|<uuid>", the time and id of the last row of the page before. Decoding
 * checks everything the database will be given, so a crafted cursor (a year PostgreSQL cannot read,
 * an id that is not a UUID, stray bytes) is a 400, never a database error.
 */
export interface Cursor {
  at: Date;
  id: string;
}

/** Exactly what Date#toISOString writes for years 1–9999 (other years it writes with a sign). */
const Payload = z.tuple([z.iso.datetime({ precision: 3 }).regex(/^(?!0000)\d{4}-/), z.uuid()]);

const invalid = () =>
  new AppError('VALIDATION_FAILED', 'This page cursor is not valid; start again from the first page.');

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const parsed = Payload.safeParse(Buffer.from(cursor, 'base64url').toString('utf8').split('|'));
  if (!parsed.success) throw invalid();
  const [iso, id] = parsed.data;
  const at = new Date(iso);
  // Only the cursors this codec writes: a date that rolls over (Feb 30) or a re-encoding that differs
  // (base64url is decoded leniently) means someone made it up.
  if (Number.isNaN(at.getTime()) || encodeCursor(at, id) !== cursor) throw invalid();
  return { at, id };
}
