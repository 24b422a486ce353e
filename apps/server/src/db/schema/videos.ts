import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { jobs } from './jobs.ts';
import { users } from './users.ts';

/**
 * The MP4 an animate job made, with its poster frame. The job row carries status and progress; this
 * row exists once the job succeeded (GET /api/animate/videos lists animate jobs joined to it).
 */
export const videos = pgTable(
  'videos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    sourceImageId: uuid('source_image_id'),
    storageKey: text('storage_key').notNull(),
    posterKey: text('poster_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    durationSeconds: real('duration_seconds').notNull(),
    bytes: integer('bytes').notNull(),
    prompt: text('prompt'),
    modelId: text('model_id').notNull(),
    provider: text('provider').notNull(),
    recipe: jsonb('recipe').$type<Record<string, unknown>>(),
    /** Kept in the saved collection (the Animate result's Save, the Gallery's Videos view). */
    isSaved: boolean('is_saved').notNull().default(false),
    // Milliseconds, as page cursors carry them (see images.createdAt).
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('videos_job_idx').on(t.jobId),
    index('videos_user_created_idx').on(t.userId, t.createdAt.desc()),
  ],
);

export type VideoRow = typeof videos.$inferSelect;
