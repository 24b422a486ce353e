import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { jobs } from './jobs.ts';
import { users } from './users.ts';

/**
 * A person's training photos (issue 12): a set is uploaded once (5-30 photos, or a zip of them) and
 * can be extended, trained on, or deleted with its files. Each photo is stored normalised (orientation
 * applied, metadata stripped) with a thumbnail and its perceptual hash, which refuses duplicates.
 */
export const trainingSets = pgTable(
  'training_sets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('training_sets_user_created_idx').on(t.userId, t.createdAt.desc())],
);

export const trainingImages = pgTable(
  'training_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    setId: uuid('set_id')
      .notNull()
      .references(() => trainingSets.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The name it was uploaded under (inside the zip, for a zip), shown with its hints. */
    filename: text('filename').notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    /** 64-bit perceptual hash as 16 hex digits: two photos within a small Hamming distance are the same. */
    phash: text('phash').notNull(),
    /** Advice that did not refuse the photo ("blurry", "no clear subject"), as sentences for people. */
    hints: jsonb('hints').$type<string[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('training_images_set_idx').on(t.setId, t.createdAt)],
);

/**
 * A model a person trained: its recipe (set, base, steps, trigger word, trainer), its state, and once
 * ready our copy of the weights (a LoRA file, or the local trainer's style profile): vendor URLs
 * expire. Its id is also its model id in the catalogue, visible to its owner alone.
 */
export const trainedModels = pgTable(
  'trained_models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    triggerWord: text('trigger_word').notNull(),
    /** person | style | object */
    subject: text('subject').notNull(),
    /** training | ready | failed | cancelled */
    status: text('status').notNull().default('training'),
    /** The set it was trained on; kept as a recipe after the set is deleted (then null). */
    setId: uuid('set_id').references(() => trainingSets.id, { onDelete: 'set null' }),
    /** Photos it was trained on (the set may change or go later). */
    imageCount: integer('image_count').notNull(),
    /** The catalogue's `train` entry used (trainer and base model). */
    trainerModelId: text('trainer_model_id').notNull(),
    /** The text-to-image model it extends (sizes, aspect ratios, price per image). */
    baseModelId: text('base_model_id').notNull(),
    provider: text('provider').notNull(),
    /** What generation with it calls at the vendor (`fal-ai/flux-lora`, `owner/name:version`, `local/aurora`). */
    providerModel: text('provider_model'),
    steps: integer('steps').notNull(),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    /** Our copy of the weights or profile, once ready. */
    weightsKey: text('weights_key'),
    weightsContentType: text('weights_content_type'),
    /** One of its training photos' thumbnails, shown as its cover until it has images of its own. */
    coverKey: text('cover_key'),
    cost: integer('cost').notNull(),
    durationMs: integer('duration_ms'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('trained_models_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('trained_models_job_idx')
      .on(t.jobId)
      .where(sql`${t.jobId} is not null`),
  ],
);

export type TrainingSetRow = typeof trainingSets.$inferSelect;
export type TrainingImageRow = typeof trainingImages.$inferSelect;
export type TrainedModelRow = typeof trainedModels.$inferSelect;
