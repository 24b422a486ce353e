import { readdirSync } from 'node:fs';
import { contracts, type Contract } from '@lumina/contracts';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
// The query-string parser Fastify itself uses, so the test knows exactly what a route was given.
import { parse as parseQuery } from 'fast-querystring';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fakePng } from '../fakes/png.ts';
import { signedInClient, type Client } from '../support/api.ts';
import { multipartBody, type FilePart } from '../support/multipart.ts';
import { startTestEnv, type TestEnv } from '../harness.ts';

/**
 * Hostile input against every contract, generated from the contracts themselves: a new route is
 * covered without new test code. For each route, random and hostile path ids, query strings, JSON
 * bodies and multipart forms (NUL, lone surrogates, huge strings, wrong types, broken percent-escapes,
 * crafted cursors, 1e309, -0, "0x10", …) mixed with valid-looking values. The rules:
 *  - no request is ever answered 5xx;
 *  - a request the contract's own schemas refuse is answered 4xx with a `detail`, and changes nothing:
 *    balances, ledger, images, uploads (rows and files), jobs (and the queue), payments, videos.
 * A request the schemas accept may legitimately succeed (a valid prompt is charged), so only the first
 * rule applies to it. Seeded and bounded: the same cases every run.
 */

const SEED = 20_261_010;
const RUNS_PER_ROUTE = 16;

interface Def {
  type: string;
  format?: string;
  checks?: Array<{ _zod: { def: { check?: string; format?: string; pattern?: RegExp } } }>;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

// ---- hostile values ------------------------------------------------------------------------------

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const CRAFTED_CURSORS = [
  b64(`2024-01-01T00:00:00Z|${'-'.repeat(36)}`),
  b64(`2024-01-01T00:00:00.000Z|${'a'.repeat(36)}`),
  b64('0000-01-01T00:00:00.000Z|0b6e6f6e-8a8a-4a8a-8a8a-8a8a8a8a8a8a'),
  b64('-000010-01-01T00:00:00.000Z|0b6e6f6e-8a8a-4a8a-8a8a-8a8a8a8a8a8a'),
  b64('+010000-01-01T00:00:00.000Z|0b6e6f6e-8a8a-4a8a-8a8a-8a8a8a8a8a8a'),
  b64('2024-01-01T00:00:00.000Z|0b6e6f6e-8a8a-4a8a-8a8a-8a8a8a8a8a8a|extra'),
  'MjAyNC0wMS0wMVQwMDowMDowMFp8LS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0t',
  '9223372036854775808',
  '0',
];

const HOSTILE_STRINGS = [
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\u0007bell',
  'del\u007f',
  'line\nbreak',
  '%00',
  '%E0%A4%A',
  '%',
  '0x10',
  '1e309',
  '-0',
  '+5',
  'NaN',
  'Infinity',
  '',
  '   ',
  'null',
  "'; drop table images; --",
  '../../etc/passwd',
  '\u202egnp.exe',
  'http://127.0.0.1/img/%E0%A4%A.png',
  'http://169.254.169.254/latest/meta-data',
  'https://example.test/img/%E0%A4%A.png',
  'javascript:alert(1)',
  '😀'.repeat(3),
  'a'.repeat(70_000),
  ...CRAFTED_CURSORS,
];

/** UTF-16 code units, lone surrogates and control characters included. */
const codeUnitString = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)),
  maxLength: 24,
});

const hostileString = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 4 },
  { arbitrary: codeUnitString, weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 24 }), weight: 1 },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(-0, -1, 0, 0.5, 1e21, 4_294_967_296, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 2 },
  { arbitrary: fc.constantFrom(null, true, false, [], {}, [['deep']], { $gt: '' }), weight: 1 },
);

// ---- arbitraries from zod schemas ------------------------------------------------------------------

interface Context {
  /** Ids of rows that exist (the client's image, a paid payment), so requests reach real rows. */
  ids: string[];
  /** Values the server knows (model ids, package ids, aspect ratios, a checkout session), so requests
   * get past lookups to where their other fields are used. */
  words: string[];
  /** Known good values by field name (model → model ids, package_id → package ids, …). */
  byField: Record<string, string[]>;
  /** The field being generated, to look it up in `byField`. */
  field?: string;
  /** False: valid-looking values only (the base a single hostile field is put into). */
  hostile: boolean;
}

/** Bounds of a zod number from its checks, clamped to a small window so values stay plausible. */
function boundsOf(def: Def): { min: number; max: number } {
  let min = -2;
  let max = 12;
  for (const check of def.checks ?? []) {
    const d = check._zod.def as { check?: string; value?: number };
    if (d.check === 'greater_than' && typeof d.value === 'number') min = d.value;
    if (d.check === 'less_than' && typeof d.value === 'number') max = Math.min(d.value, min + 12);
  }
  return { min, max };
}

function regexOf(def: Def): RegExp | undefined {
  return def.checks?.map((c) => c._zod.def).find((d) => d.format === 'regex')?.pattern;
}

/** Valid-looking values for `schema`, with hostile values mixed in at every level (when `ctx.hostile`). */
function arbitraryFor(schema: z.ZodType, ctx: Context): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const mixed = (valid: fc.Arbitrary<unknown>) =>
    ctx.hostile ? fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: hostileValue, weight: 1 }) : valid;
  switch (def.type) {
    case 'string': {
      if (def.format === 'uuid' || def.format === 'guid') {
        return mixed(fc.oneof(fc.uuid(), fc.constantFrom(...ctx.ids)));
      }
      if (def.format === 'url') return mixed(fc.oneof(fc.webUrl(), fc.constantFrom(...HOSTILE_STRINGS)));
      const pattern = regexOf(def);
      let matching: fc.Arbitrary<string> | undefined;
      if (pattern) {
        try {
          matching = fc.stringMatching(pattern, { size: 'xsmall' });
        } catch {
          // A pattern fast-check cannot generate from: plain strings stand in.
        }
      }
      const known = ctx.field ? ctx.byField[ctx.field] : undefined;
      if (known && !ctx.hostile) return fc.constantFrom(...known);
      return mixed(
        fc.oneof(
          { arbitrary: fc.constantFrom(...(known ?? ctx.words)), weight: 3 },
          { arbitrary: matching ?? fc.string({ maxLength: 20 }), weight: 1 },
        ),
      );
    }
    case 'number':
    case 'int': {
      const { min, max } = boundsOf(def);
      const inRange =
        def.format === 'safeint' || def.type === 'int'
          ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
          : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      return mixed(inRange);
    }
    case 'boolean':
      return mixed(fc.boolean());
    case 'enum':
      return mixed(fc.constantFrom(...Object.values(def.entries ?? {})));
    case 'literal':
      return mixed(fc.constantFrom(...(def.values ?? [])));
    case 'object': {
      const shape = Object.fromEntries(
        Object.entries(def.shape ?? {}).map(([key, value]) => [
          key,
          arbitraryFor(value, { ...ctx, field: key }),
        ]),
      );
      if (!ctx.hostile) return fc.record(shape, { requiredKeys: [] });
      return fc.oneof(
        { arbitrary: fc.record(shape, { requiredKeys: [] }), weight: 6 },
        {
          arbitrary: fc
            .tuple(
              fc.record(shape, { requiredKeys: [] }),
              fc.constantFrom('junk', '__proto__', 'constructor'),
            )
            .map(([value, extra]) => ({ ...value, [extra]: 'x' })),
          weight: 1,
        },
        { arbitrary: hostileValue, weight: 1 },
      );
    }
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      // A valid base leaves most optional fields out, so it is valid for more than its schema alone.
      return ctx.hostile
        ? fc.oneof(
            { arbitrary: arbitraryFor(def.innerType!, ctx), weight: 3 },
            { arbitrary: fc.constantFrom(undefined, null), weight: 1 },
          )
        : fc.oneof(
            { arbitrary: arbitraryFor(def.innerType!, ctx), weight: 1 },
            { arbitrary: fc.constant(undefined), weight: 2 },
          );
    case 'pipe':
      // A preprocess step is a pipe from a transform: generate for the schema it feeds.
      return arbitraryFor(defOf(def.in!).type === 'transform' ? def.out! : def.in!, ctx);
    case 'union':
      return fc.oneof(...def.options!.map((option) => arbitraryFor(option, ctx)));
    case 'array':
      return mixed(fc.array(arbitraryFor(def.element!, ctx), { maxLength: 3 }));
    default:
      return hostileValue;
  }
}

/**
 * Either hostile values anywhere, or (so that one bad field is not hidden behind another) a
 * valid-looking object with exactly one field made hostile.
 */
function inputArbitrary(schema: z.ZodType, ctx: Context): fc.Arbitrary<unknown> {
  const anywhere = arbitraryFor(schema, { ...ctx, hostile: true });
  let object = schema;
  while (defOf(object).type !== 'object' && defOf(object).innerType) object = defOf(object).innerType!;
  const keys = Object.keys(defOf(object).shape ?? {});
  if (defOf(object).type !== 'object' || keys.length === 0) return anywhere;
  const oneField = fc
    .tuple(arbitraryFor(object, { ...ctx, hostile: false }), fc.constantFrom(...keys), hostileValue)
    .map(([base, key, bad]) => ({ ...(base as object), [key]: bad }));
  return fc.oneof(anywhere, oneField);
}

// ---- requests --------------------------------------------------------------------------------------

/** Percent-encodes like a client would; a lone surrogate goes out as its raw UTF-16 code unit bytes. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((ch) =>
        /\p{Cs}/u.test(ch)
          ? `%${(ch.charCodeAt(0) >> 8).toString(16)}%${(ch.charCodeAt(0) & 0xff).toString(16).padStart(2, '0')}`
          : encodeURIComponent(ch),
      )
      .join('');
  }
}

/** As text in a URL or a form: strings as they are, anything else as its JSON (or String). */
const asText = (value: unknown) =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));

/** Raw URL fragments no encoder produces: broken escapes, encoded NUL, traversal. */
const RAW_SEGMENTS = ['%00', '%E0%A4%A', '%', '%zz', '..%2F..%2Fetc', '%ED%A0%80', 'a%00b'];

interface Built {
  request: InjectOptions;
  /** The contract's schemas refuse this request (or it cannot even be parsed). */
  refused: boolean;
  label: string;
}

const safeParses = (schema: z.ZodType | undefined, value: unknown) =>
  schema === undefined || schema.safeParse(value).success;

function pathArbitrary(contract: Contract, ctx: Context) {
  const valueArb = (name: string) => {
    const schema = contract.params ? defOf(contract.params).shape?.[name] : undefined;
    const generated = schema ? arbitraryFor(schema, { ...ctx, hostile: true }) : hostileValue;
    return fc.oneof(
      { arbitrary: generated.map((v) => ({ encoded: encode(asText(v ?? '')) })), weight: 5 },
      { arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((raw) => ({ encoded: raw })), weight: 1 },
    );
  };
  return fc.tuple(...pathNames(contract).map(valueArb)).map((values) =>
    buildPath(
      contract,
      values.map((v) => v.encoded),
    ),
  );
}

/** The path's placeholders, and `*` for a wildcard path. */
function pathNames(contract: Contract): string[] {
  const names = [...contract.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return contract.path.endsWith('*') ? [...names, '*'] : names;
}

interface BuiltPath {
  path: string;
  refused: boolean;
}

/** The path with each placeholder replaced by its (already encoded) value, in `pathNames` order. */
function buildPath(contract: Contract, encoded: string[]): BuiltPath {
  let path = contract.path;
  const params: Record<string, string> = {};
  let decodable = true;
  pathNames(contract).forEach((name, i) => {
    const value = encoded[i]!;
    path = name === '*' ? path.replace('*', value) : path.replace(`{${name}}`, value);
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      decodable = false;
    }
  });
  // An empty segment is another URL (the router's 404): still refused, still nothing may change.
  const empty = Object.values(params).some((v) => v === '');
  return { path, refused: !decodable || empty || !safeParses(contract.params, params) };
}

function queryArbitrary(contract: Contract, ctx: Context) {
  const generated = contract.query ? inputArbitrary(contract.query, ctx) : fc.constant(undefined);
  return fc
    .tuple(
      generated,
      fc.option(fc.constantFrom(...RAW_SEGMENTS, ...CRAFTED_CURSORS), { freq: 4 }),
      fc.constantFrom('cursor', 'limit', 'model', 'junk'),
    )
    .map(([value, raw, rawKey]) =>
      buildQuery(contract, value, raw === null ? undefined : `${rawKey}=${raw}`),
    );
}

interface BuiltQuery {
  search: string;
  refused: boolean;
}

/** A query string from generated values (encoded as a client would) plus an optional raw fragment. */
function buildQuery(contract: Contract, value: unknown, raw?: string): BuiltQuery {
  const parts: string[] = [];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v]) parts.push(`${encode(key)}=${encode(asText(item))}`);
    }
  }
  if (raw !== undefined) parts.push(raw);
  const search = parts.join('&');
  const parsed = parseQuery(search) as Record<string, unknown>;
  return {
    search: search ? `?${search}` : '',
    refused: contract.query ? !safeParses(contract.query, { ...parsed }) : false,
  };
}

const RAW_BODIES = ['{', '[', 'null', '"text"', '{"a":1e309}', '{"text":"a\\u0000b"}', 'nul\u0000', '{}'];

function jsonBodyArbitrary(contract: Contract, ctx: Context) {
  const generated = contract.body ? inputArbitrary(contract.body, ctx) : hostileValue;
  return fc.oneof(
    {
      arbitrary: fc.tuple(generated, fc.boolean()).map(([value, overflow]) => {
        let raw = JSON.stringify(value);
        // JSON.stringify cannot write 1e309 or -0: put them in by hand.
        if (raw !== undefined && overflow) raw = raw.replace(/(:|\[)(-?\d+(\.\d+)?)/, '$11e309');
        return raw;
      }),
      weight: 6,
    },
    { arbitrary: fc.constantFrom(...RAW_BODIES), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

/** What the server reads from a JSON body; `refused` when it is not JSON at all. */
function readJson(raw: string | undefined): { value: unknown; parsed: boolean } {
  if (raw === undefined) return { value: undefined, parsed: true };
  try {
    return { value: JSON.parse(raw), parsed: true };
  } catch {
    return { value: undefined, parsed: false };
  }
}

/** A well-formed multipart form from generated field values and files, plus an optional extra field. */
function formCase(
  shape: Record<string, unknown>,
  values: Record<string, unknown>,
  files: Record<string, FilePart | undefined>,
  extra: string | null,
): FormCase {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    // What the server reads back: the text as UTF-8 (a lone surrogate arrives as U+FFFD).
    fields[key] = Buffer.from(asText(value)).toString('utf8');
  }
  const parts: Record<string, string | FilePart> = { ...fields };
  for (const [key, file] of Object.entries(files)) if (file) parts[key] = file;
  if (extra) parts[extra] = 'x';
  return { parts, fields, unknownField: extra !== null && !(extra in shape) };
}

interface FormCase {
  parts: Record<string, string | FilePart>;
  /** A text field not in the form, or a malformed body. */
  unknownField: boolean;
  fields: Record<string, string>;
  raw?: { payload: string; contentType: string };
}

function formArbitrary(form: NonNullable<Contract['form']>, ctx: Context, png: Buffer) {
  const shape = form.fields ? (defOf(form.fields).shape ?? {}) : {};
  const fieldArb = form.fields
    ? (inputArbitrary(form.fields, ctx) as fc.Arbitrary<Record<string, unknown>>).map((v) =>
        v && typeof v === 'object' && !Array.isArray(v) ? v : {},
      )
    : fc.constant({});
  const fileArb: fc.Arbitrary<FilePart> = fc.oneof(
    fc.constant({ filename: 'photo.png', bytes: png, contentType: 'image/png' }),
    fc
      .tuple(fc.uint8Array({ maxLength: 64 }), hostileString)
      .map(([bytes, name]) => ({ filename: name.replace(/["\r\n]/g, ''), bytes: Buffer.from(bytes) })),
  );
  const filesArb = fc.record(Object.fromEntries(form.files.map((f) => [f, fileArb])), { requiredKeys: [] });
  const wellFormed = fc
    .tuple(fieldArb, filesArb, fc.option(fc.constantFrom('junk', 'image_url'), { freq: 5 }))
    .map(([values, files, extra]) => formCase(shape, values, files, extra));
  const malformed = fc
    .constantFrom(
      {
        payload: '--nope\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nhi',
        contentType: 'multipart/form-data; boundary=other',
      },
      { payload: '', contentType: 'multipart/form-data' },
      { payload: '{"prompt":"hi"}', contentType: 'application/json' },
      { payload: 'prompt=hi', contentType: 'application/x-www-form-urlencoded' },
    )
    .map((raw): FormCase => ({ parts: {}, fields: {}, unknownField: true, raw }));
  return fc.oneof({ arbitrary: wellFormed, weight: 5 }, { arbitrary: malformed, weight: 1 });
}

function requestArbitrary(contract: Contract, ctx: Context, png: Buffer): fc.Arbitrary<Built> {
  const path = pathArbitrary(contract, ctx);
  const query = queryArbitrary(contract, ctx);
  if (contract.form) {
    return fc
      .tuple(path, query, formArbitrary(contract.form, ctx, png))
      .map(([p, q, form]) => buildForm(contract, p, q, form));
  }
  return fc
    .tuple(path, query, jsonBodyArbitrary(contract, ctx))
    .map(([p, q, raw]) => buildJson(contract, p, q, raw));
}

function buildForm(contract: Contract, p: BuiltPath, q: BuiltQuery, form: FormCase): Built {
  const body = form.raw ?? multipartBody(form.parts);
  const fieldsOk = !form.unknownField && safeParses(contract.form!.fields, form.fields);
  return {
    request: {
      method: contract.method,
      url: p.path + q.search,
      headers: { 'content-type': body.contentType },
      payload: body.payload,
    },
    refused: p.refused || q.refused || !fieldsOk,
    label: `${contract.method} ${p.path}${q.search.slice(0, 200)} form ${JSON.stringify(form.fields).slice(0, 300)}`,
  };
}

function buildJson(contract: Contract, p: BuiltPath, q: BuiltQuery, raw: string | undefined): Built {
  const json = readJson(raw);
  // Fastify does not read the body of a GET at all; other methods must send parseable JSON.
  const bodyOk =
    contract.method === 'GET' ||
    (json.parsed && (contract.body ? safeParses(contract.body, json.value) : true));
  return {
    request: {
      method: contract.method,
      url: p.path + q.search,
      ...(raw === undefined ? {} : { headers: { 'content-type': 'application/json' }, payload: raw }),
    },
    // Webhooks have no body schema: only a correctly signed body is accepted, and none here is.
    refused: p.refused || q.refused || !bodyOk || contract.tags.includes('webhooks'),
    label: `${contract.method} ${p.path}${q.search.slice(0, 200)} ${String(raw).slice(0, 300)}`,
  };
}

// ---- one hostile field at a time -------------------------------------------------------------------

/** The values the 500s came from, put into each field in turn. */
const FIELD_POISONS: unknown[] = ['a\u0000b', '\ud800', 'x\udfffy', '\u0007', '0x10', 'x'.repeat(70_000), -0];
const PATH_POISONS = ['%00', 'a%00b', '%E0%A4%A', '%ED%A0%80'];
/** JSON numbers JSON.stringify cannot write. */
const RAW_NUMBER_POISONS = ['1e309', '-1e309', '-0', '1e-400'];

/** Up to `count` distinct values the schema accepts, from valid-looking samples. */
function validSamples(schema: z.ZodType | undefined, ctx: Context, count: number): unknown[] {
  if (!schema) return [undefined];
  const samples = fc.sample(arbitraryFor(schema, { ...ctx, hostile: false }), { seed: SEED, numRuns: 300 });
  const valid = [
    ...new Map(
      samples.filter((v) => schema.safeParse(v).success).map((v) => [JSON.stringify(v), v]),
    ).values(),
  ];
  return valid.length > 0 ? valid.slice(0, count) : samples.slice(0, 1);
}

/** A valid-looking request (params, query, body or form fields), the base that fields are poisoned in. */
interface Base {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

function candidateBases(contract: Contract, ctx: Context): Base[] {
  const params = validSamples(contract.params, ctx, 1)[0] as Record<string, unknown> | undefined;
  const query = validSamples(contract.query, ctx, 1)[0] as Record<string, unknown> | undefined;
  const bodies = validSamples(contract.form?.fields ?? contract.body, ctx, 8);
  return bodies.map((body) => ({
    params: params ?? {},
    query: query ?? {},
    body: body as Record<string, unknown> | undefined,
  }));
}

function withBody(
  contract: Contract,
  p: BuiltPath,
  q: BuiltQuery,
  body: Record<string, unknown> | undefined,
) {
  if (contract.form) {
    return buildForm(
      contract,
      p,
      q,
      formCase(defOf(contract.form.fields!).shape ?? {}, body ?? {}, {}, null),
    );
  }
  return buildJson(contract, p, q, body === undefined ? undefined : JSON.stringify(body));
}

function encodedParams(contract: Contract, ctx: Context, base: Base): string[] {
  return pathNames(contract).map((n) => encode(asText(base.params[n] ?? ctx.ids[0])));
}

function baseRequest(contract: Contract, ctx: Context, base: Base): Built {
  const p = buildPath(contract, encodedParams(contract, ctx, base));
  return withBody(contract, p, buildQuery(contract, base.query), base.body);
}

/**
 * Every field of every input (path, query, body or form) poisoned in turn, the rest valid: the
 * systematic half of the suite, so no field's bad value can hide behind another field's refusal.
 */
function singleFieldCases(contract: Contract, ctx: Context, base: Base): Built[] {
  const names = pathNames(contract);
  const params = encodedParams(contract, ctx, base);
  const basePath = buildPath(contract, params);
  const queryBase = base.query;
  const baseQuery = buildQuery(contract, queryBase);
  const keysOf = (schema: z.ZodType | undefined) => (schema ? Object.keys(defOf(schema).shape ?? {}) : []);
  const cases: Built[] = [];
  const bodySchema = contract.form?.fields ?? contract.body;
  const bodyBase = base.body;

  names.forEach((name, i) => {
    for (const poison of [...PATH_POISONS, ...FIELD_POISONS.map((v) => encode(asText(v)))]) {
      const encoded = [...params];
      encoded[i] = poison;
      cases.push(withBody(contract, buildPath(contract, encoded), baseQuery, bodyBase));
    }
  });
  for (const key of keysOf(contract.query)) {
    const poisons = [...FIELD_POISONS, ...(key === 'cursor' ? CRAFTED_CURSORS : [])];
    for (const poison of poisons) {
      cases.push(
        withBody(contract, basePath, buildQuery(contract, { ...queryBase, [key]: poison }), bodyBase),
      );
    }
    for (const raw of PATH_POISONS) {
      const rest = Object.fromEntries(Object.entries(queryBase).filter(([k]) => k !== key));
      cases.push(withBody(contract, basePath, buildQuery(contract, rest, `${key}=${raw}`), bodyBase));
    }
  }
  for (const key of keysOf(bodySchema)) {
    for (const poison of FIELD_POISONS)
      cases.push(withBody(contract, basePath, baseQuery, { ...bodyBase, [key]: poison }));
    if (contract.body) {
      for (const raw of RAW_NUMBER_POISONS) {
        const json = JSON.stringify({ ...bodyBase, [key]: '__poison__' }).replace('"__poison__"', raw);
        cases.push(buildJson(contract, basePath, baseQuery, json));
      }
    }
  }
  return cases;
}

// ---- what must not change --------------------------------------------------------------------------

const WATCHED_TABLES = [
  'credit_balances',
  'credit_ledger',
  'images',
  'image_favorites',
  'jobs',
  'payments',
  'reviews',
  'videos',
  'stripe_events',
  'training_sets',
  'training_images',
  'trained_models',
  'purchases',
  'user_profiles',
];

/** Every watched table's full content as one digest, plus the stored files. */
async function fingerprint(env: TestEnv): Promise<string> {
  const digests = WATCHED_TABLES.map(
    (table) => `(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${table} t)`,
  ).join(` || ',' || `);
  const result = await env.container.database.db.execute(
    sql.raw(`select ${digests} || ',' || (select count(*) from pgboss.job)::text as digest`),
  );
  const rows =
    (result as unknown as { rows?: Array<{ digest: string }> }).rows ??
    (result as unknown as Array<{ digest: string }>);
  const files = readdirSync(env.config.dataDir, { recursive: true }).length;
  return `${rows[0]!.digest}:${files}`;
}

// ---- the suite -------------------------------------------------------------------------------------

/** Routes whose valid calls end the caller's session or change how it signs in: their own person. */
const OWN_PERSON = new Set(['revokeAllSessions', 'enableSecondFactor', 'disableSecondFactor']);
/** An event stream never ends by itself: exercised without signing in (answered before it opens). */
const ANONYMOUS = new Set(['progressStream']);

describe('hostile input on every contract', () => {
  let env: TestEnv;
  let client: Client;
  let ctx: Context;
  let png: Buffer;
  const exercised = new Set<string>();

  beforeAll(async () => {
    env = await startTestEnv({ workers: false });
    client = await signedInClient(env, 'hostile');
    png = await fakePng(16, 16);
    const form = multipartBody({ file: { filename: 'a.png', bytes: png } });
    const upload = await env.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      headers: { authorization: `Bearer ${client.accessToken}`, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(upload.statusCode).toBe(201);
    // A paid purchase (development checkout), so reviews and payments have a real row to reach.
    const packages = (await client.call('GET', '/api/credits/packages')).json().packages as Array<{
      id: string;
    }>;
    const checkout = await client.call('POST', '/api/credits/purchase', { package_id: packages[0]!.id });
    const sessionId = checkout.json().session_id as string;
    await client.call('POST', `/api/dev/checkout/${sessionId}/complete`);
    const [pending] = (await client.call('GET', '/api/reviews')).json().pending as Array<{
      payment_id: string;
    }>;
    expect(pending).toBeDefined();
    const models = (await client.call('GET', '/api/models')).json().models as Array<{
      id: string;
      available: boolean;
      aspect_ratios: string[];
    }>;
    const tools = (await client.call('GET', '/api/tools')).json().tools as Array<{
      models: Array<{ id: string; available: boolean }>;
    }>;
    ctx = {
      ids: [upload.json().id as string, pending!.payment_id],
      words: [
        ...new Set([
          ...models.flatMap((m) => [m.id, ...m.aspect_ratios]),
          ...tools.flatMap((t) => t.models.map((m) => m.id)),
          ...packages.map((p) => p.id),
          sessionId,
          'a cat on a mat',
          'Landscapes',
        ]),
      ],
      byField: {
        model: [
          ...models.filter((m) => m.available).map((m) => m.id),
          ...tools.flatMap((t) => t.models.filter((m) => m.available).map((m) => m.id)),
        ],
        package_id: packages.map((p) => p.id),
        product_id: packages.map((p) => p.id),
        session_id: [sessionId],
        aspect_ratio: ['1:1', '16:9'],
        category: ['Landscapes'],
        text: ['a cat on a mat'],
        prompt: ['make it blue'],
        description: ['a lighthouse at dusk'],
      },
      hostile: true,
    };
  }, 60_000);
  afterAll(() => env?.close());

  async function send(name: string, built: Built, as: Client | undefined): Promise<LightMyRequestResponse> {
    exercised.add(name);
    return env.app.inject({
      ...built.request,
      headers: {
        ...(built.request.headers as Record<string, string> | undefined),
        ...(as ? { authorization: `Bearer ${as.accessToken}` } : {}),
      },
    });
  }

  it('answers the requests reported as 500s with a 400 that says what is wrong', async () => {
    const model = ctx.byField.model![0]!;
    const cases: Array<[InjectOptions, RegExp]> = [
      [
        { method: 'POST', url: '/api/prompt', payload: { text: 'a\u0000b', model } },
        /text: contains a character/,
      ],
      [
        { method: 'POST', url: '/api/prompt', payload: { text: '\ud800', model } },
        /text: contains a character/,
      ],
      [
        { method: 'POST', url: '/api/prompt', payload: { text: 'a cat', negative_text: 'x\udc00', model } },
        /negative_text: contains a character/,
      ],
      [{ method: 'POST', url: '/api/process_payment', payload: { session_id: 'cs_\u0000' } }, /session_id/],
      [{ method: 'GET', url: '/api/dev/checkout/%00' }, /session_id: contains a character/],
      [{ method: 'GET', url: '/api/images?model=%00' }, /model: contains a character/],
      [{ method: 'GET', url: '/api/images/models/%00' }, /id: contains a character/],
      [{ method: 'GET', url: '/api/images?limit=0x10' }, /limit must be a whole number/],
      [{ method: 'GET', url: '/api/images/%E0%A4%A' }, /broken percent-escape/],
      ...CRAFTED_CURSORS.slice(0, 5).map((cursor): [InjectOptions, RegExp] => [
        { method: 'GET', url: `/api/example_images?cursor=${cursor}` },
        /cursor is not valid/,
      ]),
    ];
    for (const [request, detail] of cases) {
      const res = await env.app.inject({
        ...request,
        headers: { authorization: `Bearer ${client.accessToken}` },
      });
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(400);
      expect(res.json().detail, `${request.method} ${request.url}`).toMatch(detail);
    }
  });

  it('reads numbers in forms strictly: seed "0x10" is refused, "16" is 16', async () => {
    const send = (seed: string) => {
      const form = multipartBody({
        image: { filename: 'style.png', bytes: png, contentType: 'image/png' },
        description: 'a lighthouse',
        seed,
      });
      return env.app.inject({
        method: 'POST',
        url: '/api/copy_style',
        headers: { authorization: `Bearer ${client.accessToken}`, 'content-type': form.contentType },
        payload: form.payload,
      });
    };
    for (const bad of ['0x10', '1e3', ' 16', '16.0', '-1']) {
      const res = await send(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().detail).toBe('seed: seed must be a whole number');
    }
    expect((await send('16')).statusCode).toBe(202);
  });

  it('keeps an uploaded file name as whole characters, however long', async () => {
    const filename = `${'a'.repeat(199)}😀😀.png`;
    const form = multipartBody({ file: { filename, bytes: png, contentType: 'image/png' } });
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      headers: { authorization: `Bearer ${client.accessToken}`, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().prompt).toBe(`${'a'.repeat(199)}😀`);
  });

  for (const [name, contract] of Object.entries(contracts) as Array<[string, Contract]>) {
    it(`${name}: ${contract.method} ${contract.path}`, async () => {
      const as = ANONYMOUS.has(name)
        ? undefined
        : OWN_PERSON.has(name)
          ? await signedInClient(env, name)
          : contract.auth === false
            ? undefined
            : client;
      // The base request is the first candidate the server takes (2xx), so a poisoned field is the
      // only thing wrong with the requests built from it; sending it is a valid request.
      const candidates = candidateBases(contract, ctx);
      let base = candidates[0]!;
      for (const candidate of candidates) {
        const res = await send(name, baseRequest(contract, ctx, candidate), as);
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode < 400) {
          base = candidate;
          break;
        }
      }
      await fc.assert(
        fc.asyncProperty(requestArbitrary(contract, ctx, png), async (built) => {
          const before = built.refused ? await fingerprint(env) : undefined;
          const res = await send(name, built, as);
          const where = `${built.label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode >= 400 || built.refused) {
            expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
            expect(typeof res.json().detail, where).toBe('string');
          }
          if (before !== undefined) expect(await fingerprint(env), `changed by ${where}`).toBe(before);
        }),
        {
          seed: SEED,
          numRuns: RUNS_PER_ROUTE,
          endOnFailure: true,
          examples: singleFieldCases(contract, ctx, base).map((built) => [built] as [Built]),
        },
      );
    });
  }

  it('exercised every contract', () => {
    expect([...exercised].sort()).toEqual(Object.keys(contracts).sort());
  });
});
