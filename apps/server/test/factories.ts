import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Storage } from '../src/adapters/storage/index.ts';
import type { Database } from '../src/db/client.ts';
import { images, users } from '../src/db/schema/index.ts';
import { storeImageFiles } from '../src/modules/images/image-files.ts';
import { insertImages, type NewImage } from '../src/modules/images/images.repository.ts';
import type { ListingCache } from '../src/modules/images/listing-cache.ts';

/** Row builders for tests: each makes a valid row with unique values unless told otherwise. */
export async function createUser(db: Database, overrides: { email?: string } = {}) {
  const [user] = await db
    .insert(users)
    .values({ email: overrides.email ?? `user-${randomUUID()}@example.test` })
    .returning();
  return user!;
}

/** A stored image (a real PNG and thumbnail in storage) with a recipe, as a finished job leaves it. */
export async function createImage(
  env: {
    container: {
      database: { db: Database };
      storage: Storage;
      services?: { images: { gallery: ListingCache } };
    };
  },
  userId: string,
  overrides: Partial<NewImage> & { color?: string } = {},
) {
  const { color = '#3366ff', ...row } = overrides;
  const id = randomUUID();
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
    .png()
    .toBuffer();
  const files = await storeImageFiles(env.container.storage, userId, id, png);
  const { db } = env.container.database;
  await insertImages(db, [
    {
      id,
      userId,
      ...files,
      prompt: 'a test image',
      modelId: 'local-aurora',
      provider: 'local',
      seed: 7,
      ...row,
    },
  ]);
  // As the worker does after its commit: this process drops the owner's cached listings at once
  // (other processes hear of it from the database's notice).
  env.container.services?.images.gallery.changed(userId);
  const [image] = await db.select().from(images).where(eq(images.id, id));
  return image!;
}
