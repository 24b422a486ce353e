import type { TrainedModelView, TrainingUploadResult } from '@lumina/contracts';
import type { TestEnv } from '../../../test/harness.ts';
import { ledgerOf, type Client } from '../../../test/support/api.ts';
import { filesForm, seededPhoto } from '../training-sets/training-sets.test-helpers.ts';

let nextSeed = 1;

/**
 * A training set of `count` distinct photos owned by `client`, made the way a person makes one:
 * `POST /api/upload_train_images` (checked, normalised, hashed and stored by the training-sets
 * module), so a training test covers the whole path from upload to model. Small photos (576×512)
 * keep it quick; each call's photos have seeds of their own. Fewer than 5 photos (a set a person can
 * only reach by removing some) are made by uploading 5 and deleting the extra ones.
 */
export async function uploadTrainingSet(
  env: TestEnv,
  client: Client,
  count: number,
): Promise<TrainingUploadResult> {
  const sent = Math.max(count, 5);
  const seeds = Array.from({ length: sent }, () => nextSeed++);
  const form = filesForm(
    await Promise.all(
      seeds.map(async (seed) => ({ filename: `photo-${seed}.jpg`, data: await seededPhoto(seed, 576, 512) })),
    ),
  );
  const res = await env.app.inject({
    method: 'POST',
    url: '/api/upload_train_images',
    headers: { ...form.headers, authorization: `Bearer ${client.accessToken}` },
    payload: form.payload,
  });
  if (res.statusCode !== 201) throw new Error(`upload_train_images answered ${res.statusCode}: ${res.body}`);
  const set = res.json() as TrainingUploadResult;
  if (set.photos.length !== sent) throw new Error(`upload kept ${set.photos.length} of ${sent} photos`);
  for (const photo of set.photos.slice(count)) {
    const removed = await client.call('DELETE', `/api/training_sets/${set.id}/photos/${photo.id}`);
    if (removed.statusCode !== 200) throw new Error(`removing a photo answered ${removed.statusCode}`);
  }
  return { ...set, photos: set.photos.slice(0, count) };
}

/** The caller's trained models, as `GET /api/my_models` lists them. */
export const myModels = async (client: Client) =>
  (await client.call('GET', '/api/my_models')).json().models as TrainedModelView[];

/** One of the caller's trained models, or undefined when they have none by that id. */
export const myModel = async (client: Client, id: string) =>
  (await myModels(client)).find((m) => m.id === id);

/** The ledger amounts of one job (its charge, then any refund), in order. */
export const jobCharges = async (env: TestEnv, client: Client, jobId: string) =>
  (await ledgerOf(env, client.userId)).filter((e) => e.reference === `job:${jobId}`).map((e) => e.amount);
