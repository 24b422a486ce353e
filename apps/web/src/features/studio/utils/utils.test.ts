import { describe, expect, it } from 'vitest';
import { upscaledSize } from '@lumina/contracts';
import { affordability } from '@/lib/credits/affordability';
import { initialForms, WEB_TOOLS } from '../tools';
import { checkFile, formatBytes, imageType, previewMode } from './file-input';
import { startBlocker } from './readiness';
import { toFormData } from './requests';
import { percentAfterKey, percentAtPointer } from './slider';

const MB = 1024 * 1024;
const file = (name: string, type: string, size: number) => ({ name, type, size });

describe('affordability', () => {
  it('blocks only a known balance that is too small', () => {
    expect(affordability(6, 5)).toEqual({ ok: false, missing: 1 });
    expect(affordability(6, 6)).toEqual({ ok: true });
    expect(affordability(6, undefined)).toEqual({ ok: true });
    expect(upscaledSize(384, 256, 4)).toEqual({ width: 1536, height: 1024 });
  });
});

describe('file checks', () => {
  it('knows image types by their declared type, or by name when the browser gives none', () => {
    expect(imageType(file('a.jpg', 'image/jpeg', 1))).toBe('image/jpeg');
    expect(imageType(file('IMG_0001.HEIC', '', 1))).toBe('image/heic');
    expect(imageType(file('scan.tif', 'application/octet-stream', 1))).toBe('image/tiff');
    expect(imageType(file('notes.txt', 'text/plain', 1))).toBeNull();
    expect(imageType(file('fake.png', 'application/pdf', 1))).toBeNull();
    expect(imageType(file('drawing.svg', 'image/svg+xml', 1))).toBeNull();
  });

  it('refuses empty files, non-images and files over the server limit, with the numbers', () => {
    expect(checkFile(file('a.png', 'image/png', 0), 20 * MB)).toEqual({ kind: 'empty' });
    expect(checkFile(file('a.pdf', 'application/pdf', 10), 20 * MB)).toEqual({ kind: 'notImage' });
    expect(checkFile(file('a.png', 'image/png', 21 * MB), 20 * MB)).toEqual({
      kind: 'tooLarge',
      size: 21 * MB,
      limit: 20 * MB,
    });
    expect(checkFile(file('a.png', 'image/png', 20 * MB), 20 * MB)).toBeNull();
  });

  it('previews what the browser shows itself, and converts HEIC, TIFF, AVIF and very large PNGs', () => {
    expect(previewMode(file('a.jpg', 'image/jpeg', MB))).toBe('browser');
    expect(previewMode(file('a.webp', 'image/webp', MB))).toBe('browser');
    expect(previewMode(file('a.gif', 'image/gif', MB))).toBe('browser');
    expect(previewMode(file('a.png', 'image/png', 14 * MB))).toBe('browser');
    expect(previewMode(file('a.png', 'image/png', 16 * MB))).toBe('convert');
    expect(previewMode(file('IMG_1.heic', '', MB))).toBe('convert');
    expect(previewMode(file('a.avif', 'image/avif', MB))).toBe('convert');
    expect(previewMode(file('a.tiff', 'image/tiff', MB))).toBe('convert');
  });

  it('formats sizes people read', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(34 * 1024)).toBe('34 KB');
    expect(formatBytes(4.25 * MB)).toBe('4.3 MB');
    expect(formatBytes(20 * MB)).toBe('20 MB');
    expect(formatBytes(2 * MB)).toBe('2 MB');
  });
});

describe('comparison slider', () => {
  it('follows the pointer across the picture, clamped to its edges', () => {
    const box = { left: 100, width: 400 };
    expect(percentAtPointer(300, box)).toBe(50);
    expect(percentAtPointer(50, box)).toBe(0);
    expect(percentAtPointer(900, box)).toBe(100);
    expect(percentAtPointer(201, box)).toBe(25);
  });

  it('moves by key as the WAI-ARIA slider pattern says', () => {
    expect(percentAfterKey('ArrowRight', 50)).toBe(51);
    expect(percentAfterKey('ArrowLeft', 50, true)).toBe(40);
    expect(percentAfterKey('PageUp', 95)).toBe(100);
    expect(percentAfterKey('ArrowDown', 0)).toBe(0);
    expect(percentAfterKey('Home', 37)).toBe(0);
    expect(percentAfterKey('End', 37)).toBe(100);
    expect(percentAfterKey('Enter', 37)).toBeNull();
  });
});

describe('start readiness', () => {
  const model = { available: true };
  it('names the first reason Start is disabled', () => {
    const base = { missing: ['noInput'] as const, hasInput: [true], model, affordable: true, busy: false };
    expect(startBlocker(base)).toBeNull();
    expect(startBlocker({ ...base, busy: true })).toBe('busy');
    expect(startBlocker({ ...base, hasInput: [false], affordable: false })).toBe('noInput');
    expect(startBlocker({ ...base, model: { available: false } })).toBe('unavailable');
    expect(startBlocker({ ...base, model: undefined })).toBe('noModel');
    expect(startBlocker({ ...base, affordable: false })).toBe('credits');
    const product = { ...base, missing: ['noPerson', 'noProduct'] as const };
    expect(startBlocker({ ...product, hasInput: [false, true] })).toBe('noPerson');
    expect(startBlocker({ ...product, hasInput: [true, false] })).toBe('noProduct');
    expect(startBlocker({ ...product, hasInput: [true, true] })).toBeNull();
  });
});

describe('request fields', () => {
  it('checks a tool form with the contract the server uses and names the wire fields', () => {
    const edit = WEB_TOOLS.edit.fields(
      { ...initialForms.edit, prompt: '  ', seed: '99999999999' },
      'local-edit',
    );
    expect(edit.ok).toBe(false);
    expect(edit.ok ? [] : Object.keys(edit.errors).sort()).toEqual(['prompt', 'seed']);

    const ok = WEB_TOOLS.edit.fields(
      { ...initialForms.edit, prompt: ' warmer ', seed: '7', negativePrompt: '' },
      'local-edit',
    );
    expect(ok).toEqual({
      ok: true,
      fields: { prompt: 'warmer', strength: initialForms.edit.strength, seed: 7, model: 'local-edit' },
    });

    const product = WEB_TOOLS.product_holding.fields(
      { aspectRatio: '2:1', prompt: '', model: null },
      'local-product',
    );
    expect(product.ok ? null : product.errors.aspect_ratio).toMatch(/aspect_ratio must be one of/);
    expect(WEB_TOOLS.copy_style.fields(initialForms.copy_style, 'local-style')).toMatchObject({
      ok: false,
      errors: { description: 'Describe the picture to make in this style' },
    });
  });

  it('puts text fields before files in the form and leaves empty ones out', () => {
    const picture = new File(['x'], 'p.png', { type: 'image/png' });
    const form = toFormData(
      { prompt: 'hi', seed: undefined, negative_prompt: '', strength: 0.5 },
      { image_file: picture },
    );
    expect([...form.keys()]).toEqual(['prompt', 'strength', 'image_file']);
    expect(form.get('strength')).toBe('0.5');
  });
});
