import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createImage } from '../../../test/factories.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { signedInClient, useSignedIn } from '../../../test/support/api.ts';

type Item = {
  id: string;
  is_saved: boolean;
  is_favorite: boolean;
  is_example: boolean;
  category: string | null;
};

describe(`gallery on ${testDb}`, () => {
  const env = useTestEnv({ workers: false, env: { ADMIN_EMAILS: 'ops@lumina.test' } });
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');
  const admin = useSignedIn(env, 'ops', { email: 'ops@lumina.test' });

  const ids = (res: { json(): { items: Item[] } }) => res.json().items.map((i) => i.id);

  it('pages through a person’s images newest first with a cursor', async () => {
    const made = [];
    for (let i = 0; i < 7; i++) {
      made.push(await createImage(env, alice.userId, { createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) }));
    }
    const newestFirst = made.map((m) => m.id).reverse();
    const first = await alice.call('GET', '/api/images?limit=3');
    expect(ids(first)).toEqual(newestFirst.slice(0, 3));
    const second = await alice.call('GET', `/api/images?limit=3&cursor=${first.json().next_cursor}`);
    expect(ids(second)).toEqual(newestFirst.slice(3, 6));
    const third = await alice.call('GET', `/api/images?limit=3&cursor=${second.json().next_cursor}`);
    expect(ids(third)).toEqual(newestFirst.slice(6));
    expect(third.json().next_cursor).toBeNull();

    const bad = await alice.call('GET', '/api/images?cursor=not-a-cursor');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/cursor is not valid/);
    expect((await alice.call('GET', '/api/images?limit=1000')).statusCode).toBe(400);
  });

  it('never skips images made within one millisecond when paging (a job’s batch)', async () => {
    const carol = await signedInClient(env, 'carol');
    const made = new Set<string>();
    for (let i = 0; i < 9; i++) made.add((await createImage(env, carol.userId)).id);
    // A batch written by one job: times a few microseconds apart, finer than a page cursor carries.
    await env.container.database.db.execute(sql`
      update images set created_at = timestamptz '2026-02-01T00:00:00.123Z' + (
        (select count(*) from images o where o.user_id = images.user_id and o.id < images.id) * interval '1 microsecond')
      where user_id = ${carol.userId}`);
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await carol.call('GET', `/api/images?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.statusCode).toBe(200);
      seen.push(...ids(page));
      cursor = page.json().next_cursor;
    }
    expect(seen).toHaveLength(9);
    expect(new Set(seen)).toEqual(made);
  });

  it('saves, favourites and filters', async () => {
    const a = await createImage(env, alice.userId);
    const b = await createImage(env, alice.userId);
    const saved = await alice.call('PUT', `/api/images/${a.id}`);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ id: a.id, is_saved: true });
    expect(ids(await alice.call('GET', '/api/images?is_saved=true'))).toEqual([a.id]);
    const unsaved = await alice.call('DELETE', `/api/images/${a.id}/save`);
    expect(unsaved.json()).toMatchObject({ id: a.id, is_saved: false });
    expect(ids(await alice.call('GET', '/api/images?is_saved=true'))).toEqual([]);
    expect((await bob.call('DELETE', `/api/images/${a.id}/save`)).statusCode).toBe(404);
    await alice.call('PUT', `/api/images/${a.id}`);

    const fav = await alice.call('PUT', `/api/images/${b.id}/favorite`);
    expect(fav.json()).toMatchObject({ is_favorite: true });
    // Idempotent.
    expect((await alice.call('PUT', `/api/images/${b.id}/favorite`)).statusCode).toBe(200);
    expect(ids(await alice.call('GET', '/api/images?is_favorite=true'))).toEqual([b.id]);
    const unfav = await alice.call('DELETE', `/api/images/${b.id}/favorite`);
    expect(unfav.json()).toMatchObject({ is_favorite: false });
    expect(ids(await alice.call('GET', '/api/images?is_favorite=true'))).toEqual([]);
  });

  it('lists images made with a model', async () => {
    const other = await createImage(env, alice.userId, { modelId: 'flux-dev', provider: 'fal' });
    const res = await alice.call('GET', '/api/images/models/flux-dev');
    expect(ids(res)).toEqual([other.id]);
    expect(ids(await alice.call('GET', '/api/images?model=flux-dev'))).toEqual([other.id]);
  });

  it('publishes examples by category for everyone, and lets only the owner or an operator unpublish', async () => {
    const image = await createImage(env, alice.userId, { prompt: 'published landscape' });
    const bad = await alice.call('PUT', `/api/example_images/${image.id}`, { category: '<script>' });
    expect(bad.statusCode).toBe(400);
    const published = await alice.call('PUT', `/api/example_images/${image.id}`, { category: 'Landscapes' });
    expect(published.json()).toMatchObject({ is_example: true, category: 'Landscapes', is_saved: true });

    // Public listing, no session needed.
    const pub = await env.app.inject({ method: 'GET', url: '/api/example_images?category=Landscapes' });
    expect(pub.statusCode).toBe(200);
    expect(ids(pub)).toContain(image.id);
    const publicFile = await env.app.inject({ method: 'GET', url: pub.json().items[0].url });
    expect(publicFile.statusCode).toBe(200);
    const categories = await env.app.inject({ method: 'GET', url: '/api/example_images/categories' });
    expect(categories.json().categories).toContainEqual({ name: 'Landscapes', count: 1 });

    // The gallery query of docs/spec/SPEC.md §7: is_example=true with or without a category.
    expect(ids(await bob.call('GET', '/api/images?is_example=true'))).toContain(image.id);
    expect(ids(await bob.call('GET', '/api/images?is_example=true&category=Portraits'))).not.toContain(
      image.id,
    );

    // Others may favourite and download an example, not change it.
    expect((await bob.call('PUT', `/api/images/${image.id}/favorite`)).json()).toMatchObject({
      is_favorite: true,
      is_own: false,
    });
    expect(ids(await bob.call('GET', '/api/images?is_favorite=true'))).toEqual([image.id]);
    expect((await bob.call('POST', `/api/track/images/${image.id}`)).json()).toEqual({ download_count: 1 });
    expect((await bob.call('PUT', `/api/images/${image.id}`)).statusCode).toBe(404);
    expect((await bob.call('DELETE', `/api/images/${image.id}`)).statusCode).toBe(404);
    expect((await bob.call('DELETE', `/api/example_images/${image.id}`)).statusCode).toBe(404);

    // An operator can take it down.
    const down = await admin.call('DELETE', `/api/example_images/${image.id}`);
    expect(down.statusCode).toBe(200);
    expect(ids(await env.app.inject({ method: 'GET', url: '/api/example_images' }))).not.toContain(image.id);
    // Now private again: Bob loses access, though his favourite row stays harmless.
    expect((await bob.call('POST', `/api/track/images/${image.id}`)).statusCode).toBe(404);
  });

  it('counts downloads of own images', async () => {
    const image = await createImage(env, alice.userId);
    await alice.call('POST', `/api/track/images/${image.id}`);
    expect((await alice.call('POST', `/api/track/images/${image.id}`)).json()).toEqual({ download_count: 2 });
  });

  it('deletes an image with its files', async () => {
    const image = await createImage(env, alice.userId);
    const { storage } = env.container;
    expect(await storage.exists(image.storageKey)).toBe(true);
    const res = await alice.call('DELETE', `/api/images/${image.id}`);
    expect(res.json()).toEqual({ deleted: true });
    expect(await storage.exists(image.storageKey)).toBe(false);
    expect(await storage.exists(image.thumbnailKey)).toBe(false);
    expect((await alice.call('DELETE', `/api/images/${image.id}`)).statusCode).toBe(404);
  });

  it('rejects malformed ids with a 400, not a 500', async () => {
    const res = await alice.call('PUT', '/api/images/not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/Not an image id/);
  });

  it('serves another person’s private file only through its signed URL, and not after tampering', async () => {
    const image = await createImage(env, alice.userId);
    const [mine] = (await alice.call('GET', '/api/images?limit=1')).json().items;
    expect(mine.id).toBe(image.id);
    const tampered = mine.url.replace(/signature=[0-9a-f]{4}/, 'signature=0000');
    expect((await env.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(404);
    const otherKey = mine.url.replace(alice.userId, bob.userId);
    expect((await env.app.inject({ method: 'GET', url: otherKey })).statusCode).toBe(404);
  });

  it('hands out the same working file URLs on repeated listings, each with most of its hour left', async () => {
    const image = await createImage(env, alice.userId);
    const first = (await alice.call('GET', '/api/images?limit=1')).json().items[0];
    expect(first.id).toBe(image.id);
    // Two minutes later (signing reads the wall clock, so a fresh signature would differ).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60_000 });
    try {
      const again = (await alice.call('GET', '/api/images?limit=1')).json().items[0];
      // The same URL each time, so the browser can reuse the thumbnail it already downloaded.
      expect(again.url).toBe(first.url);
      expect(again.thumbnail_url).toBe(first.thumbnail_url);
      for (const url of [again.url, again.thumbnail_url]) {
        const expires = Number(new URL(url, 'http://x').searchParams.get('expires'));
        expect(expires * 1000 - Date.now()).toBeGreaterThan(55 * 60 * 1000);
        const file = await env.app.inject({ method: 'GET', url });
        expect(file.statusCode).toBe(200);
        expect(file.headers['content-type']).toMatch(/^image\//);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the public counter of generated images', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/counter' });
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBeGreaterThanOrEqual(0);
  });
});
