import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createImage } from '../../../test/factories.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client, useSignedIn } from '../../../test/support/api.ts';
import { EXAMPLES_SCOPE, ListingCache } from './listing-cache.ts';

type Item = { id: string; is_saved: boolean; is_favorite: boolean; download_count: number };
const listed = async (client: Client, query = '') =>
  (await client.call('GET', `/api/images${query}`)).json().items as Item[];

describe('ListingCache', () => {
  const cache = () => {
    const c = new ListingCache({ ttlMs: 60_000, maxBytes: 1024 * 1024 });
    c.setLive(true);
    return c;
  };

  it('serves what was stored until the scope changes', () => {
    const c = cache();
    c.set('alice', 'page', c.stamp(), '{"items":[]}');
    expect(c.get('alice', 'page')).toBe('{"items":[]}');
    c.changed('bob');
    expect(c.get('alice', 'page')).toBe('{"items":[]}');
    c.changed('alice');
    expect(c.get('alice', 'page')).toBeUndefined();
  });

  it('never stores a listing read before a change that committed while it was being read', () => {
    const c = cache();
    const before = c.stamp(); // the read starts
    c.changed('alice'); // a change lands meanwhile
    c.set('alice', 'page', before, 'old');
    expect(c.get('alice', 'page')).toBeUndefined();
    const after = c.stamp();
    c.set('alice', 'page', after, 'new');
    expect(c.get('alice', 'page')).toBe('new');
  });

  it('is off while changes cannot be heard, and starts empty when they can again', () => {
    const c = cache();
    c.set('alice', 'page', c.stamp(), 'kept');
    c.setLive(false);
    expect(c.get('alice', 'page')).toBeUndefined();
    c.set('alice', 'page', c.stamp(), 'while deaf');
    c.setLive(true);
    expect(c.get('alice', 'page')).toBeUndefined();
  });

  it('forgets everything on a "*" notice (a TRUNCATE) and one scope on a named one', () => {
    const c = cache();
    c.set('alice', 'page', c.stamp(), 'a');
    c.set(EXAMPLES_SCOPE, 'page', c.stamp(), 'e');
    c.heard(EXAMPLES_SCOPE);
    expect(c.get(EXAMPLES_SCOPE, 'page')).toBeUndefined();
    expect(c.get('alice', 'page')).toBe('a');
    c.heard('*');
    expect(c.get('alice', 'page')).toBeUndefined();
  });

  it('expires entries after the time limit even without a notice', async () => {
    const c = new ListingCache({ ttlMs: 40, maxBytes: 1024 * 1024 });
    c.setLive(true);
    c.set('alice', 'page', c.stamp(), 'a');
    expect(c.get('alice', 'page')).toBe('a');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(c.get('alice', 'page')).toBeUndefined();
  });
});

describe(`gallery listings from memory on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');

  /** A change made outside this process's API (another process, an operator's SQL): raw SQL on a
   * connection of its own on PostgreSQL; on PGlite (one process) the same database handle. */
  async function insertElsewhere(userId: string): Promise<string> {
    const id = randomUUID();
    const text = `insert into images (id, user_id, storage_key, thumbnail_key, content_type, width, height, bytes, prompt, model_id, provider)
      values ($1, $2, 'users/x/a.png', 'users/x/a.thumb.webp', 'image/png', 64, 48, 100, 'made elsewhere', 'local-aurora', 'local')`;
    const url = env.container.config.database.url;
    if (!url) {
      await env.container.database.executor.executeSql(text, [id, userId]);
      return id;
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text, [id, userId]);
    } finally {
      await client.end();
    }
    return id;
  }

  it('shows every change a person makes at once, however often the list was read before', async () => {
    const a = await createImage(env, alice.userId);
    const b = await createImage(env, alice.userId);
    const held = env.container.services.images.gallery.size;
    for (let i = 0; i < 3; i++) expect((await listed(alice)).map((i) => i.id)).toEqual([b.id, a.id]);
    // The repeats came from memory: what follows checks that memory never shows a stale list.
    expect(env.container.services.images.gallery.size).toBe(held + 1);

    await alice.call('PUT', `/api/images/${a.id}`);
    expect((await listed(alice)).find((i) => i.id === a.id)?.is_saved).toBe(true);
    expect((await listed(alice, '?is_saved=true')).map((i) => i.id)).toEqual([a.id]);

    await alice.call('PUT', `/api/images/${b.id}/favorite`);
    expect((await listed(alice)).find((i) => i.id === b.id)?.is_favorite).toBe(true);

    await alice.call('POST', `/api/track/images/${a.id}`);
    expect((await listed(alice)).find((i) => i.id === a.id)?.download_count).toBe(1);

    expect((await alice.call('DELETE', `/api/images/${b.id}`)).statusCode).toBe(200);
    expect((await listed(alice)).map((i) => i.id)).toEqual([a.id]);
    expect((await listed(alice, '?is_saved=true')).map((i) => i.id)).toEqual([a.id]);
  });

  it('keeps each person’s listing their own', async () => {
    const own = await createImage(env, bob.userId);
    await listed(alice);
    expect((await listed(bob)).map((i) => i.id)).toContain(own.id);
    expect((await listed(alice)).map((i) => i.id)).not.toContain(own.id);
  });

  it('shows a change made by another process within moments (the database announces it)', async () => {
    await listed(bob);
    const id = await insertElsewhere(bob.userId);
    await vi.waitFor(async () => expect((await listed(bob)).map((i) => i.id)).toContain(id), {
      timeout: 2000,
      interval: 5,
    });
  });

  it('updates the public examples, signed out, when an example is published or withdrawn', async () => {
    const image = await createImage(env, alice.userId);
    const examples = async () =>
      ((await env.app.inject({ method: 'GET', url: '/api/example_images' })).json().items as Item[]).map(
        (i) => i.id,
      );
    expect(await examples()).not.toContain(image.id);
    await alice.call('PUT', `/api/example_images/${image.id}`, { category: 'nature' });
    expect(await examples()).toContain(image.id);
    await alice.call('DELETE', `/api/example_images/${image.id}`);
    expect(await examples()).not.toContain(image.id);
  });

  it.runIf(testDb === 'postgres')(
    'reads from the database while the notices cannot be heard, and caches again once they can',
    async () => {
      const carol = await signedInClient(env, 'carol');
      await listed(carol);
      const admin = new pg.Client({ connectionString: env.container.config.database.url });
      await admin.connect();
      const listeners = () =>
        admin.query(
          `select pid from pg_stat_activity where datname = current_database() and query ilike 'LISTEN lumina_gallery%'`,
        );
      try {
        const { rows } = await listeners();
        expect(rows).toHaveLength(1);
        await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
        await vi.waitFor(() => expect(env.container.services.images.gallery.enabled).toBe(false));
        // Nothing can be heard now: a change elsewhere must still show on the very next read.
        const unheard = await insertElsewhere(carol.userId);
        expect((await listed(carol)).map((i) => i.id)).toContain(unheard);

        // Listening again (a second later): the cache is back on and still fresh.
        await vi.waitFor(async () => expect((await listeners()).rows).toHaveLength(1), { timeout: 5000 });
        expect(env.container.services.images.gallery.enabled).toBe(true);
        await listed(carol);
        const heard = await insertElsewhere(carol.userId);
        await vi.waitFor(async () => expect((await listed(carol)).map((i) => i.id)).toContain(heard), {
          timeout: 2000,
          interval: 5,
        });
      } finally {
        await admin.end();
      }
    },
  );
});
