import {
  REFERRAL_SOURCE_MAX,
  type OnboardingView,
  type TrainingSetView,
  type TrainingUploadResult,
} from '@lumina/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv, type TestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client, useSignedIn } from '../../../test/support/api.ts';
import { purchases, trainedModels, trainingSets, userProfiles } from '../../db/schema/index.ts';
import { uploadTrainingSet } from '../training/training.test-helpers.ts';
import {
  buildZip,
  filesForm,
  seededPhoto,
  type UploadPart,
} from '../training-sets/training-sets.test-helpers.ts';

const answers = {
  use_case: 'professional_headshots',
  country: 'GB',
  phone: '+442079460958',
  referral_source: 'search_engine',
  gender: 'female',
};

function postForm(env: TestEnv, client: Client | undefined, url: string, parts: UploadPart[]) {
  const form = filesForm(parts);
  return env.app.inject({
    method: 'POST',
    url,
    headers: { ...form.headers, ...(client ? { authorization: `Bearer ${client.accessToken}` } : {}) },
    payload: form.payload,
  });
}

let nextSeed = 9000;
async function photos(count: number): Promise<UploadPart[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const seed = nextSeed++;
      return { filename: `photo-${seed}.jpg`, data: await seededPhoto(seed, 576, 512) };
    }),
  );
}

const profileRow = async (env: TestEnv, userId: string) =>
  (await env.container.database.db.select().from(userProfiles).where(eq(userProfiles.userId, userId)))[0];

const pendingIds = async (client: Client) => {
  const res = await client.call('GET', '/api/onboarding/pending_image_sets');
  expect(res.statusCode).toBe(200);
  return (res.json().sets as TrainingSetView[]).map((s) => s.id);
};

describe(`onboarding on ${testDb}`, { timeout: 120_000 }, () => {
  // No workers: a training started here stays `training`, which is all "in use" needs.
  const env = useTestEnv({ workers: false, env: { WELCOME_CREDITS: '100' } });
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');

  it('refuses each bad field with a detail that names it, and stores nothing', async () => {
    const carol = await signedInClient(env, 'carol');
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...answers, use_case: 'world_domination' }, /use_case must be professional_headshots, .* or other/],
      [{ ...answers, use_case: undefined }, /use_case must be/],
      [{ ...answers, country: 'ZZ' }, /Choose a country \(a two-letter ISO 3166-1 code/],
      [{ ...answers, country: 'United Kingdom' }, /Choose a country/],
      [{ ...answers, country: undefined }, /country/],
      [{ ...answers, phone: '12345' }, /phone number in international form/],
      [{ ...answers, phone: '+44 abc 7946' }, /phone number in international form/],
      [{ ...answers, phone: '+0442079460958' }, /phone number in international form/],
      [{ ...answers, referral_source: '   ' }, /Say how you heard of us/],
      [{ ...answers, referral_source: 'x'.repeat(REFERRAL_SOURCE_MAX + 1) }, /At most 100 characters/],
      [{ ...answers, referral_source: undefined }, /referral_source/],
      [{ ...answers, referral_source: 'a friend\u0000' }, /not allowed/],
      [{ ...answers, gender: 'robot' }, /gender must be female, male, non_binary or prefer_not_to_say/],
      [{ ...answers, gender: null }, /gender must be/],
    ];
    for (const [body, detail] of cases) {
      const res = await carol.call('POST', '/api/onboarding', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      expect(res.json().detail, JSON.stringify(body)).toMatch(detail);
    }
    expect(await profileRow(env, carol.userId)).toBeUndefined();
    const view = (await carol.call('GET', '/api/onboarding')).json() as OnboardingView;
    expect(view).toEqual({
      use_case: null,
      country: null,
      phone: null,
      referral_source: null,
      gender: null,
      onboarded: false,
      completed_at: null,
      skipped_at: null,
    });
    expect((await carol.call('GET', '/api/user')).json().onboarded).toBe(false);
  });

  it('normalises what it accepts: lower-case country, spaced phone, free-text source, no gender', async () => {
    const dave = await signedInClient(env, 'dave');
    const res = await dave.call('POST', '/api/onboarding', {
      use_case: 'dating_profile',
      country: ' de ',
      phone: '+49 (30) 1234-5678',
      referral_source: '  my sister told me  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      use_case: 'dating_profile',
      country: 'DE',
      phone: '+493012345678',
      referral_source: 'my sister told me',
      gender: null,
      onboarded: true,
    });
    const row = await profileRow(env, dave.userId);
    expect(row).toMatchObject({ country: 'DE', phone: '+493012345678', gender: null });

    // An empty phone means none; a source of exactly the limit is accepted.
    const again = await dave.call('POST', '/api/onboarding', {
      ...answers,
      phone: '',
      referral_source: 'y'.repeat(REFERRAL_SOURCE_MAX),
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ phone: null, referral_source: 'y'.repeat(REFERRAL_SOURCE_MAX) });
    expect((await profileRow(env, dave.userId))!.phone).toBeNull();
  });

  it('marks the first completion onboarded; an edit keeps completed_at and moves updated_at', async () => {
    const erin = await signedInClient(env, 'erin');
    expect((await erin.call('GET', '/api/user')).json().onboarded).toBe(false);
    const first = await erin.call('POST', '/api/onboarding', answers);
    expect(first.statusCode, first.body).toBe(200);
    const done = first.json() as OnboardingView;
    expect(done).toMatchObject({ ...answers, onboarded: true, skipped_at: null });
    expect(done.completed_at).not.toBeNull();
    expect((await erin.call('GET', '/api/user')).json().onboarded).toBe(true);
    const before = (await profileRow(env, erin.userId))!;

    await new Promise((r) => setTimeout(r, 20));
    const edit = await erin.call('POST', '/api/onboarding', {
      ...answers,
      use_case: 'marketing',
      country: 'us',
      gender: undefined,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({
      use_case: 'marketing',
      country: 'US',
      gender: null,
      completed_at: done.completed_at,
      onboarded: true,
    });
    const after = (await profileRow(env, erin.userId))!;
    expect(after.completedAt).toEqual(before.completedAt);
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect((await erin.call('GET', '/api/onboarding')).json()).toEqual(edit.json());

    // A bad edit changes nothing.
    const bad = await erin.call('POST', '/api/onboarding', { ...answers, country: 'XX' });
    expect(bad.statusCode).toBe(400);
    expect(await profileRow(env, erin.userId)).toEqual(after);

    // Skipping after completing leaves it completed, not skipped.
    const skip = await erin.call('POST', '/api/onboarding/skip');
    expect(skip.statusCode).toBe(200);
    expect(skip.json()).toMatchObject({ onboarded: true, skipped_at: null, use_case: 'marketing' });
  });

  it('skips: onboarded without answers, the first skip time kept, answers later complete it', async () => {
    const finn = await signedInClient(env, 'finn');
    const skip = await finn.call('POST', '/api/onboarding/skip');
    expect(skip.statusCode, skip.body).toBe(200);
    const skipped = skip.json() as OnboardingView;
    expect(skipped).toMatchObject({ onboarded: true, completed_at: null, use_case: null });
    expect(skipped.skipped_at).not.toBeNull();
    expect((await finn.call('GET', '/api/user')).json().onboarded).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect((await finn.call('POST', '/api/onboarding/skip')).json().skipped_at).toBe(skipped.skipped_at);

    const later = await finn.call('POST', '/api/onboarding', answers);
    expect(later.json()).toMatchObject({ ...answers, onboarded: true, skipped_at: skipped.skipped_at });
    expect(later.json().completed_at).not.toBeNull();
  });

  it('answers 401 to a signed-out caller on every onboarding route, and keeps people apart', async () => {
    for (const [method, url] of [
      ['GET', '/api/onboarding'],
      ['POST', '/api/onboarding'],
      ['POST', '/api/onboarding/skip'],
      ['GET', '/api/onboarding/pending_image_sets'],
    ] as const) {
      const res = await env.app.inject({ method, url, ...(method === 'POST' ? { payload: answers } : {}) });
      expect(res.statusCode, url).toBe(401);
    }
    const upload = await postForm(env, undefined, '/api/onboarding/upload_images', await photos(5));
    expect(upload.statusCode).toBe(401);

    // One person's answers are theirs alone.
    const gina = await signedInClient(env, 'gina');
    const hugo = await signedInClient(env, 'hugo');
    await gina.call('POST', '/api/onboarding', answers);
    expect((await hugo.call('GET', '/api/onboarding')).json()).toMatchObject({
      onboarded: false,
      use_case: null,
    });
    expect((await hugo.call('GET', '/api/user')).json().onboarded).toBe(false);
  });

  it('takes photos like a training upload and lists the sets nothing uses yet, newest first', async () => {
    const res = await postForm(env, alice, '/api/onboarding/upload_images', await photos(6));
    expect(res.statusCode, res.body).toBe(201);
    const first = res.json() as TrainingUploadResult;
    expect(first.photos).toHaveLength(6);
    expect(first.refused).toEqual([]);
    // The same set as a training upload makes: the training-set routes read it.
    expect((await alice.call('GET', `/api/training_sets/${first.id}`)).statusCode).toBe(200);

    // A zip works too.
    const zipped = buildZip(
      (await photos(5)).map((p) => ({ name: `me/${p.filename}`, data: p.data as Buffer })),
    );
    const zipRes = await postForm(env, alice, '/api/onboarding/upload_images', [
      { filename: 'me.zip', data: zipped, contentType: 'application/zip' },
    ]);
    expect(zipRes.statusCode, zipRes.body).toBe(201);
    const second = zipRes.json() as TrainingUploadResult;
    expect(second.photos).toHaveLength(5);

    // A set made through the training page waits as well.
    const third = await uploadTrainingSet(env, alice, 5);
    const pending = await pendingIds(alice);
    expect(pending).toEqual([third.id, second.id, first.id]);
    const listed = (await alice.call('GET', '/api/onboarding/pending_image_sets')).json().sets[2];
    expect(listed.photos.map((p: { id: string }) => p.id)).toEqual(first.photos.map((p) => p.id));

    // Bob sees none of them.
    expect(await pendingIds(bob)).toEqual([]);
  });

  it('refuses what a training upload refuses, with the same detail, and stores nothing', async () => {
    const someone = await signedInClient(env, 'ivy');
    const few = await photos(2);
    const notImage = [
      ...(await photos(2)),
      { filename: 'notes.txt', data: 'hello', contentType: 'text/plain' },
    ];
    for (const parts of [few, notImage, []]) {
      const viaOnboarding = await postForm(env, someone, '/api/onboarding/upload_images', parts);
      const viaTraining = await postForm(env, someone, '/api/upload_train_images', parts);
      expect(viaOnboarding.statusCode).toBeGreaterThanOrEqual(400);
      expect(viaOnboarding.statusCode).toBeLessThan(500);
      expect(viaOnboarding.statusCode).toBe(viaTraining.statusCode);
      expect(viaOnboarding.json().detail).toBe(viaTraining.json().detail);
    }
    const notJson = await env.app.inject({
      method: 'POST',
      url: '/api/onboarding/upload_images',
      headers: { authorization: `Bearer ${someone.accessToken}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(notJson.statusCode).toBe(415);
    const rows = await env.container.database.db
      .select()
      .from(trainingSets)
      .where(eq(trainingSets.userId, someone.userId));
    expect(rows).toEqual([]);
    expect(await pendingIds(someone)).toEqual([]);
  });

  it('leaves out a set a training or a standing purchase uses, and gives it back when that ends', async () => {
    const jo = await signedInClient(env, 'jo');
    const trained = await uploadTrainingSet(env, jo, 5);
    const bought = await uploadTrainingSet(env, jo, 5);
    const free = await uploadTrainingSet(env, jo, 5);
    expect(await pendingIds(jo)).toEqual([free.id, bought.id, trained.id]);

    const training = await jo.call('POST', '/api/train_model', { set_id: trained.id, name: 'Me' });
    expect(training.statusCode, training.body).toBe(202);
    const db = env.container.database.db;
    const [purchase] = await db
      .insert(purchases)
      .values({
        userId: jo.userId,
        productId: 'headshots',
        kind: 'photo_shoot',
        product: { name: 'Headshots' },
        status: 'training',
        paidWith: 'credits',
        creditsSpent: 50,
        setId: bought.id,
      })
      .returning();
    expect(await pendingIds(jo)).toEqual([free.id]);

    // Another person never sees jo's sets.
    expect(await pendingIds(bob)).not.toContain(free.id);

    // A failed training and a refunded purchase give the photos back.
    await db
      .update(trainedModels)
      .set({ status: 'failed' })
      .where(eq(trainedModels.id, training.json().model.id));
    await db.update(purchases).set({ status: 'refunded' }).where(eq(purchases.id, purchase!.id));
    expect(await pendingIds(jo)).toEqual([free.id, bought.id, trained.id]);

    // A ready model keeps its set.
    await db
      .update(trainedModels)
      .set({ status: 'ready' })
      .where(eq(trainedModels.id, training.json().model.id));
    expect(await pendingIds(jo)).toEqual([free.id, bought.id]);
  });
});

describe(`onboarding photos and the upload quota on ${testDb}`, () => {
  const env = useTestEnv({ workers: false, env: { UPLOAD_QUOTA_BYTES: String(128 * 1024) } });
  const kim = useSignedIn(env, 'kim');

  it('counts onboarding photos against the same quota as training photos, storing nothing when over', async () => {
    const sized = (from: number) =>
      Promise.all(
        [0, 1, 2, 3, 4].map(async (i) => ({
          filename: `q-${from + i}.jpg`,
          data: await seededPhoto(from + i, 640, 560),
        })),
      );
    const first = await sized(300);
    const bytes = first.reduce((sum, p) => sum + p.data.length, 0);
    expect(bytes).toBeLessThan(128 * 1024);
    expect(bytes * 2).toBeGreaterThan(128 * 1024);
    // A set through the training page takes most of the quota ...
    expect((await postForm(env, kim, '/api/upload_train_images', first)).statusCode).toBe(201);
    // ... so the onboarding upload is refused as the training upload would be.
    const over = await postForm(env, kim, '/api/onboarding/upload_images', await sized(310));
    expect(over.statusCode).toBe(413);
    expect(over.json().detail).toMatch(/^Your uploads use .* of your 128 KB of storage/);
    const sets = await env.container.database.db
      .select()
      .from(trainingSets)
      .where(eq(trainingSets.userId, kim.userId));
    expect(sets).toHaveLength(1);
    expect(await pendingIds(kim)).toEqual([sets[0]!.id]);
  });
});
