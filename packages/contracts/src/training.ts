import { z } from 'zod';
import { defineContract } from './contract.ts';
import { Vendor } from './models.ts';
import { JobAccepted } from './generation.ts';
import { listChoices } from './tool-recipe.ts';
import { text } from './text.ts';

/**
 * Training your own model (docs/spec/SPEC.md §1, §7; issue 12): upload a set of photos, train on it,
 * then generate with what you trained. The bounds are documented here once: the server enforces them
 * and the web shows them.
 */

/** Photos a training set holds: fewer teach nothing, more add cost without adding likeness. */
export const TRAINING_MIN_PHOTOS = 5;
export const TRAINING_MAX_PHOTOS = 30;
/** The shortest side a training photo may have, in pixels. */
export const TRAINING_MIN_SIDE = 512;
/** A zip of photos: the most entries and the most bytes it may unpack to (a zip bomb stops here). */
export const TRAINING_ZIP_MAX_ENTRIES = 100;
export const TRAINING_ZIP_MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

/** What a model is trained to reproduce: a person's likeness, a visual style, or an object. */
export const TRAINING_SUBJECTS = ['person', 'style', 'object'] as const;
export type TrainingSubject = (typeof TRAINING_SUBJECTS)[number];

/** A trigger word: one token the prompt uses to call the trained subject up ("TOK", "ohwx_anna"). */
export const TRIGGER_WORD = /^[A-Za-z][A-Za-z0-9_]{1,23}$/;

/** The file field(s) of the multipart upload: each photo, or one zip, under `files`. */
export const TrainingUploadForm = {
  files: ['files'],
  fields: z.object({}),
} as const;

export const TrainingPhoto = z
  .object({
    id: z.uuid(),
    filename: z.string(),
    url: z.string().describe('Short-lived URL of the stored (normalised) photo'),
    thumbnail_url: z.string().describe('Short-lived URL of its WebP thumbnail'),
    width: z.int(),
    height: z.int(),
    /** Advice that does not refuse the photo ("blurry", "no clear subject"), as sentences. */
    hints: z.array(z.string()),
  })
  .meta({ id: 'TrainingPhoto' });
export type TrainingPhoto = z.infer<typeof TrainingPhoto>;

export const RefusedPhoto = z
  .object({
    filename: z.string(),
    /** Why, for people: "Too small: 400×300; photos need at least 512 px on the short side." */
    reason: z.string(),
  })
  .meta({ id: 'RefusedPhoto' });
export type RefusedPhoto = z.infer<typeof RefusedPhoto>;

export const TrainingSetView = z
  .object({
    id: z.uuid(),
    photos: z.array(TrainingPhoto),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'TrainingSet' });
export type TrainingSetView = z.infer<typeof TrainingSetView>;

/** An upload's answer: the set as it now is, and the files of this upload that were refused, each with why. */
export const TrainingUploadResult = TrainingSetView.extend({ refused: z.array(RefusedPhoto) }).meta({
  id: 'TrainingUploadResult',
});
export type TrainingUploadResult = z.infer<typeof TrainingUploadResult>;

const setId = z.object({ id: z.uuid('Not a training set id') });

export const uploadTrainingPhotosContract = defineContract({
  method: 'POST',
  path: '/api/upload_train_images',
  summary: `Start a training set from ${TRAINING_MIN_PHOTOS}-${TRAINING_MAX_PHOTOS} photos or one zip of them (multipart: files); refused files are listed with reasons`,
  tags: ['training'],
  form: TrainingUploadForm,
  response: TrainingUploadResult,
  status: 201,
});

export const listTrainingSetsContract = defineContract({
  method: 'GET',
  path: '/api/training_sets',
  summary: "The caller's training sets, newest first",
  tags: ['training'],
  response: z.object({ sets: z.array(TrainingSetView) }).meta({ id: 'TrainingSetList' }),
});

export const trainingSetContract = defineContract({
  method: 'GET',
  path: '/api/training_sets/{id}',
  summary: 'One of the caller’s training sets',
  tags: ['training'],
  params: setId,
  response: TrainingSetView,
});

export const extendTrainingSetContract = defineContract({
  method: 'POST',
  path: '/api/training_sets/{id}/photos',
  summary: `Add photos (or a zip) to a training set, up to ${TRAINING_MAX_PHOTOS} in all`,
  tags: ['training'],
  params: setId,
  form: TrainingUploadForm,
  response: TrainingUploadResult,
});

export const deleteTrainingPhotoContract = defineContract({
  method: 'DELETE',
  path: '/api/training_sets/{id}/photos/{photo_id}',
  summary: 'Remove one photo from a training set (and its files)',
  tags: ['training'],
  params: z.object({ id: z.uuid('Not a training set id'), photo_id: z.uuid('Not a photo id') }),
  response: TrainingSetView,
});

export const deleteTrainingSetContract = defineContract({
  method: 'DELETE',
  path: '/api/training_sets/{id}',
  summary: 'Delete a training set and its files (models trained on it stay)',
  tags: ['training'],
  params: setId,
  response: z.object({ deleted: z.literal(true) }),
});

export const TrainedModelStatus = z.enum(['training', 'ready', 'failed', 'cancelled']);
export type TrainedModelStatus = z.infer<typeof TrainedModelStatus>;

export const TrainedModelView = z
  .object({
    id: z.uuid().describe('Also its model id in /api/prompt and the tools'),
    name: z.string(),
    trigger_word: z.string(),
    subject: z.enum(TRAINING_SUBJECTS),
    status: TrainedModelStatus,
    /** The catalogue's `train` entry it was trained with, and the text-to-image model it extends. */
    trainer_model: z.string(),
    base_model: z.string(),
    provider: Vendor,
    steps: z.int(),
    image_count: z.int(),
    set_id: z.uuid().nullable().describe('Null once the set is deleted'),
    job_id: z.uuid().nullable().describe('The training job, for progress and cancel'),
    cover_url: z.string().nullable(),
    cost: z.int(),
    duration_ms: z.int().nullable(),
    error: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'TrainedModel' });
export type TrainedModelView = z.infer<typeof TrainedModelView>;

export const TrainRequest = z
  .object({
    set_id: z.uuid('Choose a training set (its id)'),
    name: text().trim().min(1, 'Give the model a name').max(60, 'Names are at most 60 characters'),
    trigger_word: text()
      .trim()
      .regex(TRIGGER_WORD, 'A trigger word is 2-24 letters, digits or _, starting with a letter')
      .optional()
      .or(z.literal(''))
      .describe('Generated when empty'),
    subject: z
      .enum(TRAINING_SUBJECTS, { error: `subject must be ${listChoices(TRAINING_SUBJECTS)}` })
      .default('person'),
    base_model: text()
      .max(100)
      .optional()
      .describe('A `train` model id from /api/models; the trainer’s default when empty'),
    steps: z
      .int('steps must be a whole number')
      .optional()
      .describe('Within the chosen train model’s bounds; its default when empty'),
  })
  .meta({ id: 'TrainRequest' });
export type TrainRequest = z.infer<typeof TrainRequest>;

export const TrainAccepted = JobAccepted.extend({ model: TrainedModelView }).meta({ id: 'TrainAccepted' });
export type TrainAccepted = z.infer<typeof TrainAccepted>;

export const trainModelContract = defineContract({
  method: 'POST',
  path: '/api/train_model',
  summary:
    'Train a model on a training set with the operator’s default trainer: charges credits, queues a job (202)',
  tags: ['training'],
  body: TrainRequest,
  response: TrainAccepted,
  status: 202,
});

export const trainReplicateContract = defineContract({
  method: 'POST',
  path: '/api/train_replicate',
  summary: 'Train a model on Replicate’s trainings API: charges credits, queues a job (202)',
  tags: ['training'],
  body: TrainRequest,
  response: TrainAccepted,
  status: 202,
});

const modelId = z.object({ id: z.uuid('Not a model id') });

export const trainedModelsContract = defineContract({
  method: 'GET',
  path: '/api/my_models',
  summary: "The caller's trained models, newest first, in every state",
  tags: ['training'],
  response: z.object({ models: z.array(TrainedModelView) }).meta({ id: 'TrainedModelList' }),
});

export const renameTrainedModelContract = defineContract({
  method: 'PATCH',
  path: '/api/my_models/{id}',
  summary: 'Rename one of your trained models',
  tags: ['training'],
  params: modelId,
  body: z.object({ name: TrainRequest.shape.name }),
  response: TrainedModelView,
});

export const deleteTrainedModelContract = defineContract({
  method: 'DELETE',
  path: '/api/my_models/{id}',
  summary: 'Delete a trained model and its weights (images made with it stay); a training one is cancelled',
  tags: ['training'],
  params: modelId,
  response: z.object({ deleted: z.literal(true) }),
});
