import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.ts';

/** A piece of work that runs until the test ends it, recording when it started. */
function gate(started: string[], name: string) {
  let end = () => {};
  const work = () =>
    new Promise<string>((resolve) => {
      started.push(name);
      end = () => resolve(name);
    });
  return { work, end: () => end() };
}

describe('FairQueue', () => {
  it('starts work at once while a slot is free, then makes it wait', async () => {
    const queue = new FairQueue(2);
    const started: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gate(started, n));
    const runs = [queue.run('x', a!.work), queue.run('y', b!.work), queue.run('x', c!.work)];
    expect(started).toEqual(['a', 'b']);
    expect([queue.active, queue.pending, queue.pendingFor('x'), queue.pendingFor('y')]).toEqual([2, 1, 1, 0]);
    expect(queue.full).toBe(true);
    a!.end();
    b!.end();
    await runs[0];
    await runs[1];
    expect(started).toEqual(['a', 'b', 'c']);
    c!.end();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
    expect([queue.active, queue.pending]).toEqual([0, 0]);
  });

  it('gives a freed slot to whoever waited longest since their last turn, not to the oldest work', async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const run = (owner: string, name: string) => {
      const g = gate(started, name);
      gates.set(name, g);
      return queue.run(owner, g.work);
    };
    // The flooder is running one and has three more waiting before two others each send one.
    const runs = [run('flood', 'f1'), run('flood', 'f2'), run('flood', 'f3'), run('flood', 'f4')];
    runs.push(run('ann', 'a1'), run('bo', 'b1'), run('ann', 'a2'));
    for (const name of ['f1', 'a1', 'b1', 'f2', 'a2', 'f3', 'f4']) {
      expect(started.at(-1)).toBe(name);
      gates.get(name)!.end();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(runs);
    // Ann and Bo (who never had a turn) go before the flooder's second; then turns go round.
    expect(started).toEqual(['f1', 'a1', 'b1', 'f2', 'a2', 'f3', 'f4']);
  });

  it('passes failures on and frees the slot for the next', async () => {
    const queue = new FairQueue(1);
    const failing = queue.run('x', () => Promise.reject(new Error('bad image')));
    const next = queue.run('y', async () => 'ok');
    await expect(failing).rejects.toThrow('bad image');
    expect(await next).toBe('ok');
    const throwsAtOnce = queue.run('x', () => {
      throw new Error('thrown before any promise');
    });
    await expect(throwsAtOnce).rejects.toThrow('thrown before any promise');
    expect([queue.active, queue.pending]).toEqual([0, 0]);
  });
});
