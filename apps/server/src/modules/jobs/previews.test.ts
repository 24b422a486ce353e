import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage } from '../../adapters/storage/disk.storage.ts';
import { StorageNotFoundError } from '../../adapters/storage/storage.ts';
import { JobPreviews } from './previews.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lumina-previews-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const frame = (n: number) => ({ bytes: Buffer.from(`frame ${n}`), contentType: 'image/png' });
const tick = () => new Promise((r) => setTimeout(r, 3));

describe('live preview frames', () => {
  it('keeps the frame a browser was just handed until the one after next, and forgets all when the job ends', async () => {
    const storage = new DiskStorage({ root, signingSecret: 'previews-test' });
    const previews = new JobPreviews(storage, 0);
    const stored: Date[] = [];
    for (const n of [1, 2, 3]) {
      stored.push((await previews.save('job-1', frame(n)))!);
      await tick();
    }
    const read = async (at: Date) => text((await previews.read('job-1', at)).body);

    // Frame 2's URL may still be loading in someone's page after frame 3 arrives.
    expect(await read(stored[1]!)).toBe('frame 2');
    expect(await read(stored[2]!)).toBe('frame 3');
    await expect(previews.read('job-1', stored[0]!)).rejects.toBeInstanceOf(StorageNotFoundError);

    await previews.discard('job-1');
    for (const at of stored) {
      await expect(previews.read('job-1', at)).rejects.toBeInstanceOf(StorageNotFoundError);
    }
  });

  it('stores at most one frame per gap', async () => {
    const previews = new JobPreviews(new DiskStorage({ root, signingSecret: 'previews-test' }), 60_000);
    expect(await previews.save('job-2', frame(1))).toBeInstanceOf(Date);
    expect(await previews.save('job-2', frame(2))).toBeUndefined();
  });
});
