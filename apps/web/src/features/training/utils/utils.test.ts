import { describe, expect, it } from 'vitest';
import { creditsFor } from '@lumina/contracts';
import { fakeModel } from '@/testing/app-harness';
import { remainingMinutes, remainingMs } from './estimate';
import { addPicked, pickedKind, sendable, withSize } from '@/lib/photos/photo-checks';
import { clampSteps, stepsIncrement, trainingPrice, trainModels } from './training-price';

const file = (name: string, size = 10, type = 'image/jpeg') =>
  new File([new Uint8Array(size)], name, { type });

describe('the estimate', () => {
  const started = '2026-01-01T12:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('extrapolates the time left from the time the percent so far took', () => {
    const job = { status: 'running' as const, percent: 25, started_at: started };
    expect(remainingMs(job, at('2026-01-01T12:01:00.000Z'))).toBe(180_000);
    expect(remainingMinutes(180_000)).toBe(3);
    expect(remainingMinutes(10_000)).toBe(1);
  });

  it('gives none while queued, without a percent, too early to tell, or done', () => {
    const now = at('2026-01-01T12:01:00.000Z');
    expect(remainingMs({ status: 'queued', percent: null, started_at: null }, now)).toBeNull();
    expect(remainingMs({ status: 'running', percent: null, started_at: started }, now)).toBeNull();
    expect(remainingMs({ status: 'running', percent: 2, started_at: started }, now)).toBeNull();
    expect(remainingMs({ status: 'running', percent: 100, started_at: started }, now)).toBeNull();
    expect(remainingMs({ status: 'running', percent: 50, started_at: started }, at(started))).toBeNull();
  });
});

describe('picked files', () => {
  it('tells photos, zips and other files apart by type or name', () => {
    expect(pickedKind(file('a.JPG', 1, ''))).toBe('photo');
    expect(pickedKind(file('IMG_1.heic', 1, ''))).toBe('photo');
    expect(pickedKind(file('set.zip', 1, 'application/x-zip-compressed'))).toBe('zip');
    expect(pickedKind(file('set', 1, 'application/zip'))).toBe('zip');
    expect(pickedKind(file('notes.txt', 1, 'text/plain'))).toBe('other');
  });

  it('marks the same name and size picked twice, or already uploaded, and a small preview', () => {
    const url = () => 'blob:x';
    let list = addPicked([], [file('a.jpg'), file('a.jpg', 11), file('a.jpg')], new Set(), url);
    expect(list.map((p) => p.problem)).toEqual([null, null, 'duplicate']);
    expect(list[2]!.previewUrl).toBeNull();
    list = addPicked(list, [file('b.jpg')], new Set([`b.jpg\u000010`]), url);
    expect(list[3]!.problem).toBe('duplicate');
    list = withSize(list, list[0]!.key, { width: 511, height: 2000 });
    list = withSize(list, list[1]!.key, { width: 512, height: 512 });
    expect(list.map((p) => p.problem)).toEqual(['tooSmall', null, 'duplicate', 'duplicate']);
    expect(sendable(list)).toEqual([list[1]]);
    expect(new Set(list.map((p) => p.key)).size).toBe(4);
  });
});

describe('the training price', () => {
  const trainer = fakeModel({
    capability: 'train',
    credit_cost: 45,
    training: { min_steps: 500, max_steps: 4000, default_steps: 1000, base_model: 'flux-dev' },
  });

  it('is what creditsFor charges: credit cost per 1000 steps, rounded up', () => {
    for (const steps of [500, 999, 1000, 1001, 2750, 4000])
      expect(trainingPrice(trainer, steps)).toBe(creditsFor({ capability: 'train', creditCost: 45, steps }));
    expect(trainingPrice(trainer, 1001)).toBe(46);
    expect(trainingPrice(undefined, 1000)).toBe(0);
  });

  it('keeps steps within the bounds and offers only train models, usable first', () => {
    expect(clampSteps(trainer, 100)).toBe(500);
    expect(clampSteps(trainer, 9000)).toBe(4000);
    expect(clampSteps(trainer, 1234.6)).toBe(1235);
    // The slider's grid holds the bounds and the default.
    expect(stepsIncrement(trainer.training!)).toBe(25);
    expect(
      stepsIncrement({ ...trainer.training!, min_steps: 100, max_steps: 1100, default_steps: 500 }),
    ).toBe(10);
    expect(stepsIncrement({ ...trainer.training!, min_steps: 1, max_steps: 50, default_steps: 7 })).toBe(1);
    const off = { ...trainer, id: 'off', available: false };
    expect(trainModels([off, fakeModel(), trainer]).map((m) => m.id)).toEqual([trainer.id, 'off']);
  });
});
