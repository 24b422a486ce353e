import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sizeFor } from '../../adapters/providers/catalogue.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../../queue/queue.ts';
import type { Logger } from '../../logger.ts';
import { storeImageFiles } from '../images/image-files.ts';
import type { ModelCatalogue } from '../models/model-catalogue.ts';
import { CURATED_EXAMPLES, ExampleSpecsSchema, type ExampleSpec } from './curated.ts';
import * as repo from './examples.repository.ts';

/** The fixed id of the account that owns seeded examples (it has no email and cannot sign in). */
export const EXAMPLES_OWNER_ID = '00000000-0000-4000-8000-00000000e7a1';

/** The longest side of a seeded example: large enough for the landing page, quick to render. */
const MAX_SIDE = 1024;

/** A name-based (version 5 shaped) UUID: the same example always gets the same image id. */
export function exampleImageId(spec: ExampleSpec): string {
  const hex = createHash('sha256')
    .update(`lumina-example:${spec.model}:${spec.seed}:${spec.aspect_ratio}:${spec.category}:${spec.prompt}`)
    .digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The examples to seed: the operator's EXAMPLES_FILE when set (checked at start-up), else the curated set. */
export function loadExampleSpecs(file: string | undefined): readonly ExampleSpec[] {
  if (!file) return CURATED_EXAMPLES;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`EXAMPLES_FILE (${file}) cannot be read as JSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const parsed = ExampleSpecsSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `EXAMPLES_FILE (${file}): ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/**
 * Publishes a set of example images on a fresh install, rendered by the local engine in the
 * background (an `examples.seed` job), so the landing page and Examples show real work from the first
 * start. It is idempotent wherever it runs: each example has a fixed id, rendering skips ids that
 * exist, and rows are inserted with ON CONFLICT DO NOTHING, so restarts, retries and several processes
 * starting at once publish each example exactly once. Seeding happens only while nothing is published
 * and no seeded example exists yet: an operator who unpublishes the seeded ones is not overridden.
 */
export class ExampleSeeder {
  /** The examples whose model is a local one in this catalogue (the others are logged and left out). */
  readonly specs: readonly ExampleSpec[];

  constructor(
    private readonly deps: {
      db: Database;
      storage: Storage;
      queue: JobQueue;
      models: ModelCatalogue;
      specs: readonly ExampleSpec[];
      log: Logger;
    },
  ) {
    this.specs = deps.specs.filter((spec) => {
      const found = deps.models.find(spec.model);
      const usable = found?.capability === 'text-to-image' && found.provider === 'local' && found.available;
      if (!usable)
        deps.log.warn({ model: spec.model }, 'examples: not a local model; this example is left out');
      return usable;
    });
  }

  /** True on a fresh install: no public example at all, and none of the seeded ones exists. */
  async needsSeeding(): Promise<boolean> {
    if (this.specs.length === 0 || (await repo.countPublishedExamples(this.deps.db)) > 0) return false;
    const ids = this.specs.map(exampleImageId);
    return (await repo.existingImageIds(this.deps.db, ids)).size === 0;
  }

  /** Called at start-up (never awaited by it): queues the seeding job when the install is fresh. */
  async requestSeeding(): Promise<boolean> {
    try {
      if (!(await this.needsSeeding())) return false;
      await this.deps.queue.send('examples.seed', {}, { singletonKey: 'examples.seed' });
      this.deps.log.info(
        { count: this.specs.length },
        'examples: rendering the example set in the background',
      );
      return true;
    } catch (err) {
      // Another process queued it first (singleton) or the database is busy: nothing is lost.
      this.deps.log.debug({ err }, 'examples: seeding not queued');
      return false;
    }
  }

  /** The job: renders and publishes every example that does not exist yet. Returns how many it added. */
  async run(signal?: AbortSignal): Promise<{ published: number }> {
    const { db, storage, models, log } = this.deps;
    const specs = this.specs;
    await repo.ensureOwner(db, EXAMPLES_OWNER_ID);
    const existing = await repo.existingImageIds(db, specs.map(exampleImageId));
    // Published newest first: the first example gets the latest time, so the curated order shows.
    const base = Date.now();
    let published = 0;
    for (const [index, spec] of specs.entries()) {
      if (signal?.aborted) break;
      const id = exampleImageId(spec);
      if (existing.has(id)) continue;
      const { model, provider } = models.get('text-to-image', spec.model);
      const full = sizeFor(model, spec.aspect_ratio);
      const scale = Math.min(1, MAX_SIDE / Math.max(full.width, full.height));
      const width = Math.round((full.width * scale) / 8) * 8;
      const height = Math.round((full.height * scale) / 8) * 8;
      const started = Date.now();
      const result = await provider.run(
        {
          providerModel: model.providerModel,
          prompt: spec.prompt,
          negativePrompt: spec.negative_prompt,
          seed: spec.seed,
          width,
          height,
          numImages: 1,
        },
        { signal: signal ?? new AbortController().signal, onProgress() {}, onSubmitted() {} },
      );
      const image = result.images[0]!;
      const files = await storeImageFiles(storage, EXAMPLES_OWNER_ID, id, image.bytes);
      const added = await repo.insertExample(db, {
        id,
        userId: EXAMPLES_OWNER_ID,
        kind: 'generate',
        ...files,
        prompt: spec.prompt,
        negativePrompt: spec.negative_prompt ?? null,
        modelId: model.id,
        provider: model.provider,
        seed: result.seed,
        durationMs: Date.now() - started,
        isSaved: true,
        isExample: true,
        category: spec.category,
        publishedAt: new Date(base - index),
      });
      if (added) published++;
    }
    log.info({ published }, 'examples: published');
    return { published };
  }
}
