import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { jobs } from './jobs.ts';
import { users } from './users.ts';

/** A stored output with its full recipe, so remix, search and "made with model X" work. */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    kind: text('kind').notNull().default('generate'),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    prompt: text('prompt'),
    negativePrompt: text('negative_prompt'),
    modelId: text('model_id').notNull(),
    provider: text('provider').notNull(),
    // Seeds span 0..2^32-1, past a Postgres integer.
    seed: bigint('seed', { mode: 'number' }),
    loraScale: real('lora_scale'),
    promptStrength: real('prompt_strength'),
    durationMs: integer('duration_ms'),
    /** For tool outputs: the source image ids and settings (contracts' ToolRecipe). */
    recipe: jsonb('recipe').$type<Record<string, unknown>>(),
    isSaved: boolean('is_saved').notNull().default(false),
    isExample: boolean('is_example').notNull().default(false),
    category: text('category'),
    // Milliseconds, as page cursors carry them (a JS Date): rows made in one millisecond are then told
    // apart by id alone, never skipped between pages.
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }),
    downloadCount: integer('download_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // The gallery's keyset pagination: newest first, id breaks ties.
    index('images_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('images_user_saved_idx')
      .on(t.userId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.isSaved}`),
    index('images_user_model_idx').on(t.userId, t.modelId, t.createdAt.desc(), t.id.desc()),
    index('images_examples_idx')
      .on(t.category, t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.isExample}`),
    index('images_job_idx').on(t.jobId),
  ],
);

/** Favourites: a person may favourite their own images and public examples. */
export const imageFavorites = pgTable(
  'image_favorites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.imageId] }),
    index('image_favorites_user_idx').on(t.userId, t.createdAt.desc()),
  ],
);

export type ImageRow = typeof images.$inferSelect;
