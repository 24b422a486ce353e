/**
 * Reading one multipart form fully into memory, with every way it can be wrong answered by a 4xx a
 * person can act on. Files are capped at `maxBytes` by the parser (plugins/multipart.ts), so memory is
 * bounded by the form limits. On any problem the rest of the request is still read and thrown away, so
 * the client gets its answer and the connection stays usable instead of stalling mid-upload.
 */
import type { Multipart, MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../../errors.ts';
import { MULTIPART_LIMITS } from '../../plugins/multipart.ts';
import { listed } from '../../words.ts';

export interface MultipartSpec {
  /** Accepted file field names. */
  files: readonly string[];
  /** Accepted text field names. */
  fields: readonly string[];
  /** Largest accepted file, in bytes. */
  maxBytes: number;
}

export interface IncomingFile {
  /** As the client named it (never trusted for the type; kept as a label). */
  filename: string;
  bytes: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, IncomingFile>;
}

/** "20 MB", "512 KB", "1.5 MB" (binary units, as browsers show file sizes). */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number(mb.toPrecision(3))} MB`;
  return `${Number((bytes / 1024).toPrecision(3))} KB`;
}

function accepted(spec: MultipartSpec): string {
  const files =
    spec.files.length === 1
      ? `the file field ${listed(spec.files)}`
      : `the file fields ${listed(spec.files)}`;
  if (spec.fields.length === 0) return `only ${files}`;
  const fields =
    spec.fields.length === 1
      ? `the text field ${listed(spec.fields)}`
      : `the text fields ${listed(spec.fields)}`;
  return `${files} and ${fields}`;
}

const invalid = (message: string) => new AppError('VALIDATION_FAILED', message);
const tooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);

/** The parser's own errors (limits, malformed bodies) as AppErrors; anything else is ours to rethrow. */
export function fromParserError(err: unknown, spec: MultipartSpec): AppError | undefined {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE': {
      const field = (err as { part?: { fieldname?: string } }).part?.fieldname ?? 'The file';
      return tooLarge(`${field} is larger than the ${formatBytes(spec.maxBytes)} limit.`);
    }
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return tooLarge(
        `This form has too many parts: send at most ${MULTIPART_LIMITS.files} files and ${MULTIPART_LIMITS.fields} text fields (it accepts ${accepted(spec)}).`,
      );
    case 'FST_PROTO_VIOLATION':
      return invalid(`This form has a field name it does not accept; it accepts ${accepted(spec)}.`);
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return invalid('A text field of this form is marked as JSON but is not valid JSON; send plain text.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send this form as multipart/form-data.');
    case 'FST_MP_PREMATURE_CLOSE':
      return invalid('The upload stopped before it finished; please try again.');
  }
  // busboy's own errors on a malformed body ("Unexpected end of form", "Boundary not found"…).
  if (
    err instanceof Error &&
    /multipart|boundary|unexpected end|malformed|part terminated/i.test(err.message)
  ) {
    return invalid('The form data is incomplete or malformed; please send it again.');
  }
  return undefined;
}

/** Reads a part we will not use to its end so the parser moves on to the next one. */
export async function skip(part: Multipart): Promise<void> {
  if (part.type !== 'file') return;
  try {
    for await (const chunk of part.file) void chunk;
  } catch {
    // The parser reports what went wrong through the iterator.
  }
}

/** A parser error can leave bytes unread: discard them so the answer is not stuck behind them. */
export function drain(request: FastifyRequest): void {
  if (!request.raw.readableEnded) request.raw.resume();
}

/** Why this part does not belong in the form, or undefined when it does. */
function refuse(part: Multipart, spec: MultipartSpec, seen: Set<string>): AppError | undefined {
  const name = part.fieldname;
  const isFile = part.type === 'file';
  if (isFile && !spec.files.includes(name)) {
    return spec.fields.includes(name)
      ? invalid(`${name} must be text, not a file.`)
      : invalid(`"${name}" is not a field of this form; it accepts ${accepted(spec)}.`);
  }
  if (!isFile && !spec.fields.includes(name)) {
    return spec.files.includes(name)
      ? invalid(`${name} must be a file: attach the image itself, not text.`)
      : invalid(`"${name}" is not a field of this form; it accepts ${accepted(spec)}.`);
  }
  if (seen.has(name)) return invalid(`${name} was sent more than once; send it once.`);
  return undefined;
}

/**
 * The whole form: text fields and files (in memory), checked against `spec`. Throws AppError:
 * 415 when the request is not multipart/form-data; 413 for a file over `maxBytes` or too many parts;
 * 400 for an unknown, repeated or mistyped field, an empty file, an over-long text field or a
 * malformed body. Which fields are required is the caller's business.
 */
export async function readMultipart(request: FastifyRequest, spec: MultipartSpec): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send this form as multipart/form-data.');
  }
  const form: MultipartForm = { fields: {}, files: {} };
  const seen = new Set<string>();
  let failure: AppError | undefined;
  const fail = (err: AppError) => {
    failure ??= err;
  };

  try {
    for await (const part of request.parts({ limits: { fileSize: spec.maxBytes } })) {
      const problem = failure ? undefined : refuse(part, spec, seen);
      if (failure || problem) {
        if (problem) fail(problem);
        // Keep reading (and discarding) so the parser reaches the end of the request.
        await skip(part);
        continue;
      }
      seen.add(part.fieldname);
      if (part.type === 'file') await readFile(part, spec, form, fail);
      else readField(part, form, fail);
    }
  } catch (err) {
    const mapped = fromParserError(err, spec);
    if (!mapped) {
      drain(request);
      throw err;
    }
    fail(mapped);
  }
  if (failure) {
    drain(request);
    throw failure;
  }
  return form;
}

async function readFile(
  part: MultipartFile,
  spec: MultipartSpec,
  form: MultipartForm,
  fail: (err: AppError) => void,
): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (err) {
    const mapped = fromParserError(err, spec);
    if (!mapped) throw err;
    fail(mapped);
    return;
  }
  // A browser sends an untouched file input as an empty part without a name: nothing was chosen.
  if (bytes.length === 0 && !part.filename) return;
  if (bytes.length === 0) {
    fail(invalid(`${part.fieldname} is empty; choose the file again.`));
    return;
  }
  form.files[part.fieldname] = { filename: part.filename, bytes };
}

function readField(part: MultipartValue, form: MultipartForm, fail: (err: AppError) => void): void {
  if (part.valueTruncated) {
    fail(invalid(`${part.fieldname} is longer than ${formatBytes(MULTIPART_LIMITS.fieldSize)}.`));
    return;
  }
  // The parser turns parts sent as application/json into objects; form fields here are plain text.
  if (typeof part.value !== 'string') {
    fail(invalid(`${part.fieldname} must be plain text.`));
    return;
  }
  form.fields[part.fieldname] = part.value;
}

/**
 * A contract's form (`contract.form`): read with `readMultipart`, then its text fields checked with the
 * form's schema, strictly like a JSON body (the text rule, numbers as decimal digits only). The first
 * problem is the message.
 */
export async function readForm<F extends z.ZodObject>(
  request: FastifyRequest,
  form: { files: readonly string[]; fields: F },
  maxBytes: number,
): Promise<{ fields: z.output<F>; files: MultipartForm['files'] }> {
  const { fields, files } = await readMultipart(request, {
    files: form.files,
    fields: Object.keys(form.fields.shape),
    maxBytes,
  });
  const parsed = form.fields.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw invalid(field ? `${field}: ${issue.message}` : issue.message);
  }
  return { fields: parsed.data, files };
}
