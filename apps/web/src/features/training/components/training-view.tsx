import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  TRAINING_MAX_PHOTOS,
  TRAINING_MIN_PHOTOS,
  type JobView,
  type ModelInfo,
  type RefusedPhoto,
  type TrainedModelView,
  type TrainingPhoto,
  type TrainingSetView,
} from '@lumina/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { buttonClass } from '@/components/ui/button-link';
import { Spinner } from '@/components/ui/spinner';
import { PhotoDropZone } from '@/components/photos/photo-drop-zone';
import { PickedPhotos } from '@/components/photos/picked-photos';
import { RefusedFiles, SetPhotos } from '@/components/photos/set-photos';
import { usePickedPhotos } from '@/components/photos/use-picked-photos';
import { paths } from '@/config/paths';
import { useMyModels } from '../api/my-models';
import { useDeleteTrainingPhoto, useTrainingSets, useUploadTrainingPhotos } from '../api/training-sets';
import { trainingJob } from '../utils/training-job';
import { trainModels } from '../utils/training-price';
import { SetActions } from './set-actions';
import { TrainForm } from './train-form';
import { TrainingProgress } from './training-progress';

const panelClass =
  'rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-6 dark:border-zinc-800 dark:bg-zinc-900';

/**
 * The Training page: photos in (previews and the browser's hints first, then the server's answer: what
 * it kept with its advice and what it refused with why), then what to train and its price, then the
 * training's live progress until the model is ready to generate with. The person's newest stored set
 * is shown on arrival, so a reload loses nothing: they go on with it, or delete it, or start a new one.
 */
export function TrainingView({
  models,
  balance,
  jobs,
  onCreditsChanged,
}: {
  /** GET /api/models: the train models come from here. */
  models: readonly ModelInfo[];
  balance: number | undefined;
  /** The progress feed, for the training's live state. */
  jobs: readonly JobView[] | undefined;
  onCreditsChanged: (balance?: number) => void;
}) {
  const { t } = useTranslation();
  const storedSets = useTrainingSets();
  /** The set this page made or changed; until then, the newest stored one (unless a new one was asked for). */
  const [pageSet, setSet] = useState<TrainingSetView | null>(null);
  const [startedFresh, setStartedFresh] = useState(false);
  const set = pageSet ?? (startedFresh ? null : (storedSets.data?.sets[0] ?? null));
  const [refused, setRefused] = useState<RefusedPhoto[]>([]);
  const photos = usePickedPhotos();
  const { picked, toSend } = photos;
  /** The model this page started, as the server accepted it; the list's newer view of it wins. */
  const [startedModel, setStartedModel] = useState<TrainedModelView | null>(null);
  const upload = useUploadTrainingPhotos();
  const removePhoto = useDeleteTrainingPhoto();
  const myModels = useMyModels();
  const trainers = useMemo(() => trainModels(models), [models]);

  const photoCount = set?.photos.length ?? 0;
  const room = TRAINING_MAX_PHOTOS - photoCount;
  // A zip's photos are counted by the server; loose photos can be counted here, sparing a refused upload.
  const photosToSend = toSend.filter((p) => p.kind === 'photo').length;
  const withZip = toSend.some((p) => p.kind === 'zip');
  const countProblem =
    photoCount + photosToSend > TRAINING_MAX_PHOTOS
      ? t('training.upload.tooMany', { count: photoCount + photosToSend, max: TRAINING_MAX_PHOTOS })
      : !set && !withZip && photosToSend > 0 && photosToSend < TRAINING_MIN_PHOTOS
        ? t('training.upload.tooFew', { count: photosToSend, min: TRAINING_MIN_PHOTOS })
        : null;

  function send() {
    if (toSend.length === 0 || countProblem) return;
    upload.mutate(
      { setId: set?.id ?? null, files: toSend.map((p) => p.file) },
      {
        onSuccess: (result) => {
          const { refused: refusedNow, ...next } = result;
          setSet(next);
          setRefused(refusedNow);
          photos.markSent(toSend);
        },
      },
    );
  }

  function onRemovePhoto(photo: TrainingPhoto) {
    if (!set) return;
    removePhoto.mutate(
      { setId: set.id, photoId: photo.id },
      {
        onSuccess: (next) => {
          setSet(next);
          photos.forgetUploaded(photo.filename);
        },
      },
    );
  }

  const started = myModels.data?.models.find((m) => m.id === startedModel?.id) ?? startedModel;
  const job = started ? trainingJob(started, jobs) : null;
  const ready = started?.status === 'ready' || job?.status === 'succeeded';
  const finished =
    ready || (job ? job.status === 'failed' || job.status === 'cancelled' : started?.status !== 'training');

  /** An empty page for a new set: the shown one is left stored (or was just deleted). */
  function startNewSet() {
    setSet(null);
    setStartedFresh(true);
    setRefused([]);
    photos.resetUploaded();
    setStartedModel(null);
    upload.reset();
    removePhoto.reset();
  }

  /** Back to the form, with the same photos, for another model (other steps, another trainer). */
  function trainAnother() {
    setStartedModel(null);
  }

  // Trainings started earlier (before a reload, or in another tab) stay in view while they run.
  const running = (myModels.data?.models ?? []).filter(
    (m) => m.status === 'training' && m.id !== started?.id,
  );

  return (
    <div className="flex flex-col gap-6">
      {running.length > 0 && (
        <section
          aria-labelledby="training-running-heading"
          className={panelClass}
          data-testid="training-running"
        >
          <h2 id="training-running-heading" className="mb-4 text-lg font-semibold">
            {t('training.run.inProgress')}
          </h2>
          <ul className="flex flex-col gap-5">
            {running.map((model) => {
              const runningJob = trainingJob(model, jobs);
              return (
                <li key={model.id} className="flex flex-col gap-2">
                  <p className="text-sm font-medium">{model.name}</p>
                  {runningJob && (
                    <TrainingProgress
                      job={runningJob}
                      onCancelled={(j) => j.refunded && onCreditsChanged()}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      <section aria-labelledby="training-photos-heading" className={panelClass}>
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="training-photos-heading" className="text-lg font-semibold">
            {t('training.upload.heading')}
          </h2>
          <p
            data-testid="training-count"
            className={`text-sm tabular-nums ${
              photoCount >= TRAINING_MIN_PHOTOS
                ? 'text-emerald-700 dark:text-emerald-300'
                : 'text-zinc-600 dark:text-zinc-400'
            }`}
          >
            {t('training.upload.count', {
              count: photoCount,
              min: TRAINING_MIN_PHOTOS,
              max: TRAINING_MAX_PHOTOS,
            })}
          </p>
        </div>
        <div className="flex flex-col gap-4">
          {room > 0 && (
            <PhotoDropZone onFiles={photos.add} more={photoCount > 0} disabled={upload.isPending} />
          )}
          <PickedPhotos picked={picked} onRemove={photos.remove} onMeasured={photos.measured} />
          {picked.length > 0 && (
            <div className="flex flex-wrap items-center gap-3">
              <Button
                onClick={send}
                disabled={toSend.length === 0 || countProblem !== null || upload.isPending}
                data-testid="training-upload"
              >
                {upload.isPending && <Spinner className="size-4 border-white/40 border-t-white" />}
                {t('training.upload.send', { count: toSend.length })}
              </Button>
              {countProblem && (
                <p
                  className="text-sm text-amber-700 dark:text-amber-300"
                  data-testid="training-count-problem"
                >
                  {countProblem}
                </p>
              )}
              {toSend.length < picked.length && (
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  {t('training.upload.heldBack', { count: picked.length - toSend.length })}
                </p>
              )}
            </div>
          )}
          {upload.error && (
            <Alert tone="error" testId="training-upload-error">
              {upload.error.message}
            </Alert>
          )}
          <RefusedFiles refused={refused} />
          {removePhoto.error && (
            <Alert tone="error" testId="training-remove-error">
              {removePhoto.error.message}
            </Alert>
          )}
          {set && pageSet === null && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="training-resumed">
              {t('training.set.resumed')}
            </p>
          )}
          {set && set.photos.length > 0 && (
            <SetPhotos
              photos={set.photos}
              removing={removePhoto.isPending ? (removePhoto.variables?.photoId ?? null) : null}
              onRemove={onRemovePhoto}
            />
          )}
          {set && (!started || finished) && (
            <SetActions
              key={set.id}
              setId={set.id}
              photoCount={photoCount}
              onStartNew={startNewSet}
              onDeleted={startNewSet}
            />
          )}
        </div>
      </section>

      {set && !started && (
        <section className={panelClass}>
          <TrainForm
            setId={set.id}
            photoCount={photoCount}
            trainers={trainers}
            balance={balance}
            onStarted={(accepted) => {
              onCreditsChanged(accepted.balance);
              setStartedModel(accepted.model);
            }}
          />
        </section>
      )}

      {started && (
        <section aria-labelledby="training-run-heading" className={panelClass} data-testid="training-run">
          <h2 id="training-run-heading" className="mb-1 text-lg font-semibold">
            {t('training.run.heading', { name: started.name })}
          </h2>
          <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">
            {t('training.run.trigger')}{' '}
            <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100">
              {started.trigger_word}
            </code>
          </p>
          {job ? (
            <TrainingProgress job={job} onCancelled={(j) => j.refunded && onCreditsChanged()} />
          ) : (
            started.status === 'failed' && (
              <Alert tone="error" testId="training-failed">
                {started.error ?? t('training.job.failed')} {t('training.job.refundedAny')}
              </Alert>
            )
          )}
          <div className="mt-4 flex flex-wrap gap-3">
            {ready && (
              <Link
                to={`${paths.generate}?model=${encodeURIComponent(started.id)}`}
                className={buttonClass('primary')}
                data-testid="training-generate"
              >
                {t('training.models.generate')}
              </Link>
            )}
            <Link to={paths.models} className={buttonClass('secondary')}>
              {t('training.run.toModels')}
            </Link>
            {finished && set && (
              <Button look="secondary" onClick={trainAnother} data-testid="training-again">
                {t('training.run.again')}
              </Button>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
