import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Contract } from './contract.ts';
import { contracts } from './registry.ts';
import { MULTI_LINE_TEXT, pageLimit, SINGLE_LINE_TEXT, text, wholeNumber } from './text.ts';

interface Def {
  type: string;
  format?: string;
  checks?: unknown[];
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** UUIDs need no text rule: their own pattern admits only hex digits and dashes. */
const HEX_ONLY_FORMATS = new Set(['uuid', 'guid']);

/** Paths (like "body.text") of every string field in `schema` that does not carry the text rule. */
function unruledStrings(schema: z.ZodType, path: string): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      if (def.format && HEX_ONLY_FORMATS.has(def.format)) return [];
      const ruled = def.checks?.some((c) => c === SINGLE_LINE_TEXT || c === MULTI_LINE_TEXT);
      return ruled ? [] : [path];
    }
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([k, v]) => unruledStrings(v, `${path}.${k}`));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return unruledStrings(def.innerType!, path);
    case 'pipe':
      return [...unruledStrings(def.in!, path), ...unruledStrings(def.out!, path)];
    case 'union':
      return def.options!.flatMap((o, i) => unruledStrings(o, `${path}|${i}`));
    case 'array':
      return unruledStrings(def.element!, `${path}[]`);
    case 'record':
      return [
        ...unruledStrings(def.keyType!, `${path}{key}`),
        ...unruledStrings(def.valueType!, `${path}{}`),
      ];
    case 'intersection':
      return [...unruledStrings(def.left!, path), ...unruledStrings(def.right!, path)];
    default:
      // Numbers, booleans, enums, literals, transforms: no free text reaches the server through them.
      return [];
  }
}

/** Every input schema of a contract: params, query, body and multipart text fields. */
function inputsOf(contract: Contract): Array<[string, z.ZodType]> {
  const inputs: Array<[string, z.ZodType | undefined]> = [
    ['params', contract.params],
    ['query', contract.query],
    ['body', contract.body],
    ['form', contract.form?.fields],
  ];
  return inputs.filter((entry): entry is [string, z.ZodType] => entry[1] !== undefined);
}

describe('the text rule', () => {
  it('is carried by every string field of every contract (params, query, body, form fields)', () => {
    const missing = Object.entries(contracts).flatMap(([name, contract]) =>
      inputsOf(contract).flatMap(([where, schema]) => unruledStrings(schema, `${name} ${where}`)),
    );
    expect(missing).toEqual([]);
  });

  it('the walker finds a string field that lacks the rule, however deep', () => {
    const schema = z.object({
      ok: text(),
      id: z.uuid(),
      plain: z.string().optional(),
      nested: z.object({ list: z.array(z.string().max(3)) }).nullish(),
      url: z.url(),
    });
    expect(unruledStrings(schema, 'x')).toEqual(['x.plain', 'x.nested.list[]', 'x.url']);
  });

  it('refuses NUL, other control characters and lone surrogates with a message naming the problem', () => {
    const line = text().max(50);
    for (const bad of ['a\u0000b', '\u0007', 'x\u007f', '\ud800', 'a\udc00b', 'line\nbreak', 'tab\there']) {
      const result = line.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('contains a character that is not allowed');
    }
    expect(line.safeParse('Café 😀 — «ok»').success).toBe(true);
  });

  it('lets multi-line fields keep tabs and line breaks, and nothing else below space', () => {
    const prompt = text({ multiline: true });
    expect(prompt.safeParse('a cat\n\ton a mat\r\n').success).toBe(true);
    expect(prompt.safeParse('a\u0000b').success).toBe(false);
    expect(prompt.safeParse('\u000b').success).toBe(false);
    expect(prompt.safeParse('\udfff tail').success).toBe(false);
  });
});

describe('numbers from query strings and form fields', () => {
  it('are decimal digits only: "0x10" is not 16', () => {
    const seed = wholeNumber('seed must be a whole number');
    for (const bad of [
      '0x10',
      '1e3',
      ' 12',
      '12 ',
      '12abc',
      '-0',
      '',
      '+5',
      '0b1',
      '1.0',
      'Infinity',
      '１２',
    ]) {
      expect(seed.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(seed.safeParse('16').data).toBe(16);
    expect(seed.safeParse('0').data).toBe(0);
    expect(seed.safeParse(16).data).toBe(16);
  });

  it('page limits keep their bounds and default', () => {
    const limit = pageLimit(100, 24);
    expect(limit.safeParse(undefined).data).toBe(24);
    expect(limit.safeParse('100').data).toBe(100);
    expect(limit.safeParse('101').success).toBe(false);
    expect(limit.safeParse('0').success).toBe(false);
    expect(limit.safeParse('0x10').success).toBe(false);
  });
});
