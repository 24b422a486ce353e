import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, tempDir, testDb, type TestEnv } from '../../../test/harness.ts';
import { eventually, signedInClient } from '../../../test/support/api.ts';
import { CURATED_EXAMPLES } from './curated.ts';
import { EXAMPLES_OWNER_ID, exampleImageId, loadExampleSpecs } from './examples.seeder.ts';

const SPECS = [
  { category: 'Landscapes', prompt: 'Misty lake at sunrise', aspect_ratio: '3:2', seed: 11 },
  { category: 'Landscapes', prompt: 'Dunes at dusk', aspect_ratio: '16:9', seed: 12 },
  { category: 'Posters', model: 'local-prism', prompt: 'Geometric fox', aspect_ratio: '2:3', seed: 13 },
];

describe(`seeding public examples on a fresh install on ${testDb}`, () => {
  let env: TestEnv;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir();
    writeFileSync(path.join(dir, 'examples.json'), JSON.stringify(SPECS));
    env = await startTestEnv({
      env: { EXAMPLES_FILE: path.join(dir, 'examples.json'), ADMIN_EMAILS: 'ops@example.test' },
    });
  });
  afterAll(() => env.close());

  const listPublic = async (query = '') =>
    (await env.app.inject({ method: 'GET', url: `/api/example_images${query}` })).json() as {
      items: Array<Record<string, unknown> & { id: string; url: string; thumbnail_url: string }>;
    };

  it('renders the set once in the background and publishes it by category, public to signed-out visitors', async () => {
    const seeder = env.container.services.examples;
    expect(await seeder.needsSeeding()).toBe(true);
    expect((await listPublic()).items).toEqual([]);

    // Two processes starting at once both ask; the work is queued and done once.
    const asked = await Promise.all([seeder.requestSeeding(), seeder.requestSeeding()]);
    expect(asked.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    const items = await eventually(
      async () => {
        const list = (await listPublic()).items;
        return list.length === SPECS.length ? list : undefined;
      },
      60_000,
      'the examples',
    );

    // In the order given (newest first by publication), with prompt, model and category shown.
    expect(items.map((i) => i.prompt)).toEqual(SPECS.map((s) => s.prompt));
    expect(items[2]).toMatchObject({
      id: exampleImageId({ model: 'local-prism', negative_prompt: undefined, ...SPECS[2]! } as never),
      model: 'local-prism',
      provider: 'local',
      category: 'Posters',
      is_example: true,
      is_own: false,
    });
    expect(items[0]).toMatchObject({ width: 1024, model: 'local-aurora' });
    expect(Math.abs((items[0]!.width as number) / (items[0]!.height as number) - 3 / 2)).toBeLessThan(0.02);
    const categories = await env.app.inject({ method: 'GET', url: '/api/example_images/categories' });
    expect(categories.json().categories).toEqual([
      { name: 'Landscapes', count: 2 },
      { name: 'Posters', count: 1 },
    ]);
    expect((await listPublic('?category=Posters')).items).toHaveLength(1);
    // Signed out, the image and its thumbnail load.
    for (const url of [items[0]!.url, items[0]!.thumbnail_url]) {
      const file = await env.app.inject({ method: 'GET', url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toMatch(/^image\//);
    }
    // Seeded examples are not paid jobs: the public counter counts people's images only.
    expect((await env.app.inject({ method: 'GET', url: '/api/counter' })).json().count).toBe(0);
  });

  it('is idempotent: a restart, a retry or a second run adds nothing', async () => {
    const seeder = env.container.services.examples;
    expect(await seeder.needsSeeding()).toBe(false);
    expect(await seeder.requestSeeding()).toBe(false);
    const again = await Promise.all([seeder.run(), seeder.run()]);
    expect(again).toEqual([{ published: 0 }, { published: 0 }]);
    expect((await listPublic()).items).toHaveLength(SPECS.length);
  });

  it('lets an operator replace them: unpublished seeded examples are not brought back', async () => {
    const ops = await signedInClient(env, 'ops', { email: 'ops@example.test' });
    for (const item of (await listPublic()).items) {
      const res = await ops.call('DELETE', `/api/example_images/${item.id}`);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await listPublic()).items).toEqual([]);
    expect(await env.container.services.examples.needsSeeding()).toBe(false);
    // The owner account of seeded examples cannot be signed into: it has no email.
    const { users } = await import('../../db/schema/index.ts');
    const { eq } = await import('drizzle-orm');
    const [owner] = await env.container.database.db
      .select()
      .from(users)
      .where(eq(users.id, EXAMPLES_OWNER_ID));
    expect(owner!.email).toBeNull();
  });

  it('checks an operator file and names the problem', () => {
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify([{ category: 'Bad/Category', prompt: 'x' }]));
    expect(() => loadExampleSpecs(path.join(dir, 'bad.json'))).toThrow(/EXAMPLES_FILE .*0\.category/);
    expect(() => loadExampleSpecs(path.join(dir, 'missing.json'))).toThrow(/EXAMPLES_FILE .*cannot be read/);
    expect(loadExampleSpecs(undefined)).toBe(CURATED_EXAMPLES);
    expect(new Set(CURATED_EXAMPLES.map(exampleImageId)).size).toBe(CURATED_EXAMPLES.length);
  });
});
