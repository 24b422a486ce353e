import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { trainingImages, trainingSets } from '../../db/schema/index.ts';
import type { TestEnv } from '../../../test/harness.ts';

/**
 * A training set of `count` distinct photos owned by `userId`, stored as the upload pipeline stores
 * them (training-sets module). Seeded directly: the upload route is the training-sets module's, and
 * these tests are about what happens to a set once it exists.
 */
export async function seedTrainingSet(env: TestEnv, userId: string, count: number, hue = 20) {
  const { db } = env.container.database;
  const { storage } = env.container;
  const setId = randomUUID();
  await db.insert(trainingSets).values({ id: setId, userId });
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    // Warm, varied photos: a gradient of one hue, each a little different.
    const colour = `hsl(${(hue + i * 7) % 360}, 70%, ${35 + i * 3}%)`;
    const bytes = await sharp({ create: { width: 512, height: 512, channels: 3, background: colour } })
      .composite([
        {
          input: await sharp({
            create: {
              width: 256,
              height: 256,
              channels: 3,
              background: `hsl(${(hue + 180) % 360}, 60%, 80%)`,
            },
          })
            .png()
            .toBuffer(),
          left: 64 + i * 8,
          top: 128,
        },
      ])
      .jpeg()
      .toBuffer();
    const key = `training/${userId}/${setId}/${id}.jpg`;
    const thumb = `training/${userId}/${setId}/${id}-thumb.webp`;
    await storage.put(key, bytes, { contentType: 'image/jpeg' });
    await storage.put(thumb, await sharp(bytes).resize(128).webp().toBuffer(), { contentType: 'image/webp' });
    await db.insert(trainingImages).values({
      id,
      setId,
      userId,
      filename: `photo-${i + 1}.jpg`,
      storageKey: key,
      thumbnailKey: thumb,
      contentType: 'image/jpeg',
      width: 512,
      height: 512,
      bytes: bytes.length,
      phash: i.toString(16).padStart(16, '0'),
    });
  }
  return setId;
}
