import { describe, expect, it, vi } from 'vitest';
import { contracts } from '@lumina/contracts';
import { answer, answerError, ImpossibleAnswer, progressEvent } from './fake-api';
import { createLocalServer } from './local-server';

describe('contract-typed fake answers', () => {
  it('passes an answer the contract allows, with the contract status', () => {
    expect(answer(contracts.creditBalance, { balance: 3 })).toEqual({ status: 200, body: { balance: 3 } });
    expect(
      answer(contracts.prompt, {
        job_id: '10000000-0000-4000-8000-000000000001',
        status: 'queued',
        cost: 1,
        balance: 2,
      }).status,
    ).toBe(202);
  });

  it('refuses an answer the real API could never send, saying which route and field', () => {
    // @ts-expect-error the balance is a number in the contract
    const wrong = () => answer(contracts.creditBalance, { balance: 'lots' });
    expect(wrong).toThrow(ImpossibleAnswer);
    expect(wrong).toThrow(/GET \/api\/credits\/balance[\s\S]*balance/);
    expect(() => answer(contracts.creditBalance, { balance: 1 }, 202)).toThrow(/documents no 202 answer/);
  });

  it('answers errors in the API envelope, and a progress event checked against the progress contract', () => {
    expect(answerError(409, 'CONFLICT', 'Taken')).toEqual({
      status: 409,
      body: { detail: 'Taken', code: 'CONFLICT' },
    });
    expect(() => answerError(200, 'CONFLICT', 'Taken')).toThrow(ImpossibleAnswer);
    expect(progressEvent({ jobs: [] })).toBe('event: progress\ndata: {"jobs":[]}\n\n');
    // @ts-expect-error a job needs more than an id
    expect(() => progressEvent({ jobs: [{ id: 'x' }] })).toThrow(ImpossibleAnswer);
  });

  it('routes by the contract path with any placeholder value, and records a route that throws', async () => {
    const server = createLocalServer();
    await server.listen();
    try {
      server.on(contracts.deleteImage, (req) =>
        req.params.id === 'a b'
          ? answer(contracts.deleteImage, { deleted: true })
          : answerError(404, 'NOT_FOUND', 'No such image'),
      );
      // @ts-expect-error a route answers with its own contract's body, not another route's
      server.on(contracts.creditBalance, () => answer(contracts.deleteImage, { deleted: true }));
      server.on(contracts.creditBalance, () =>
        // @ts-expect-error the balance is a number in the contract
        answer(contracts.creditBalance, { balance: null }),
      );
      const deleted = await fetch(`${server.url}/api/images/a%20b`, { method: 'DELETE' });
      expect(await deleted.json()).toEqual({ deleted: true });
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const broken = await fetch(`${server.url}/api/credits/balance`);
      expect(broken.status).toBe(500);
      expect(quiet).toHaveBeenCalledWith('Fake route GET /api/credits/balance failed:', expect.any(Error));
      quiet.mockRestore();
      expect(server.failures).toHaveLength(1);
      expect(server.failures[0]).toBeInstanceOf(ImpossibleAnswer);
    } finally {
      await server.close();
    }
  });
});
