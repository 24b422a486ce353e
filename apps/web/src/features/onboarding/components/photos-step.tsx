import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  TRAINING_MAX_PHOTOS,
  TRAINING_MIN_PHOTOS,
  type RefusedPhoto,
  type TrainingSetView,
} from '@lumina/contracts';
import { PhotoDropZone } from '@/components/photos/photo-drop-zone';
import { PickedPhotos } from '@/components/photos/picked-photos';
import { RefusedFiles, SetPhotos } from '@/components/photos/set-photos';
import { usePickedPhotos } from '@/components/photos/use-picked-photos';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/query-states';
import { Spinner } from '@/components/ui/spinner';
import { usePendingImageSets } from '../api/pending-image-sets';
import { useUploadOnboardingImages } from '../api/upload-onboarding-images';

/**
 * Step 2: photos for the shoot. Picked files show their previews and what the browser can tell; the
 * upload answers with what was kept (each photo with the server's advice) and what was refused (with
 * why). The set chosen here, or else the newest one still pending from before a reload, is offered back;
 * another upload makes a new set. Photos are optional here: a shoot can get them after it is bought.
 */
export function PhotosStep({
  setId,
  onChooseSet,
  onBack,
  onContinue,
  skip,
}: {
  setId: string | null;
  onChooseSet: (id: string | null) => void;
  onBack: () => void;
  onContinue: () => void;
  skip: ReactNode;
}) {
  const { t } = useTranslation();
  const pending = usePendingImageSets();
  const upload = useUploadOnboardingImages();
  const photos = usePickedPhotos();
  const [uploadedSet, setUploadedSet] = useState<TrainingSetView | null>(null);
  const [refused, setRefused] = useState<RefusedPhoto[]>([]);
  /** "Upload other photos": the pending set is put aside (it stays stored) and the drop zone comes back. */
  const [freshStart, setFreshStart] = useState(false);

  const sets = pending.data?.sets ?? [];
  const set = uploadedSet ?? (freshStart ? null : (sets.find((s) => s.id === setId) ?? sets[0] ?? null));
  const resumed = set !== null && uploadedSet === null;

  const photosToSend = photos.toSend.filter((p) => p.kind === 'photo').length;
  const withZip = photos.toSend.some((p) => p.kind === 'zip');
  const countProblem =
    photosToSend > TRAINING_MAX_PHOTOS
      ? t('training.upload.tooMany', { count: photosToSend, max: TRAINING_MAX_PHOTOS })
      : !withZip && photosToSend > 0 && photosToSend < TRAINING_MIN_PHOTOS
        ? t('training.upload.tooFew', { count: photosToSend, min: TRAINING_MIN_PHOTOS })
        : null;

  function send() {
    const toSend = photos.toSend;
    if (toSend.length === 0 || countProblem) return;
    upload.mutate(
      toSend.map((p) => p.file),
      {
        onSuccess: (result) => {
          const { refused: refusedNow, ...stored } = result;
          setRefused(refusedNow);
          photos.markSent(toSend);
          // A set that kept nothing is no set to buy with.
          if (stored.photos.length > 0) {
            setUploadedSet(stored);
            onChooseSet(stored.id);
          }
        },
      },
    );
  }

  function uploadOthers() {
    setFreshStart(true);
    setUploadedSet(null);
    setRefused([]);
    photos.resetUploaded();
    onChooseSet(null);
  }

  // The stored sets decide what is shown first; a failed load leaves the drop zone.
  if (pending.isPending) return <LoadingBlock className="py-10" />;

  return (
    <div className="flex flex-col gap-4" data-testid="onboarding-photos">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {t('onboarding.photos.intro', { min: TRAINING_MIN_PHOTOS, max: TRAINING_MAX_PHOTOS })}
      </p>
      {set ? (
        <>
          {resumed && (
            <Alert tone="info" testId="onboarding-photos-resumed">
              {t('onboarding.photos.resumed')}
            </Alert>
          )}
          <p className="text-sm font-medium" data-testid="onboarding-photo-count">
            {t('onboarding.photos.count', { count: set.photos.length })}
          </p>
          <SetPhotos photos={set.photos} />
          <div>
            <Button look="secondary" onClick={uploadOthers} data-testid="onboarding-upload-others">
              {t('onboarding.photos.uploadOthers')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <PhotoDropZone onFiles={photos.add} more={false} disabled={upload.isPending} />
          <PickedPhotos picked={photos.picked} onRemove={photos.remove} onMeasured={photos.measured} />
          {photos.picked.length > 0 && (
            <div className="flex flex-wrap items-center gap-3">
              <Button
                onClick={send}
                disabled={photos.toSend.length === 0 || countProblem !== null || upload.isPending}
                data-testid="training-upload"
              >
                {upload.isPending && <Spinner className="size-4 border-white/40 border-t-white" />}
                {t('training.upload.send', { count: photos.toSend.length })}
              </Button>
              {countProblem && (
                <p
                  className="text-sm text-amber-700 dark:text-amber-300"
                  data-testid="training-count-problem"
                >
                  {countProblem}
                </p>
              )}
            </div>
          )}
        </>
      )}
      {upload.error && (
        <Alert tone="error" testId="onboarding-upload-error">
          {upload.error.message}
        </Alert>
      )}
      <RefusedFiles refused={refused} />
      {!set && photos.picked.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('onboarding.photos.none')}</p>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <Button look="secondary" onClick={onBack}>
          {t('onboarding.back')}
        </Button>
        <Button
          onClick={() => {
            // The set shown (uploaded now or offered back) is the one the shoot trains on.
            onChooseSet(set?.id ?? null);
            onContinue();
          }}
          disabled={upload.isPending}
          data-testid="onboarding-continue"
        >
          {set ? t('onboarding.photos.keep') : t('onboarding.continue')}
        </Button>
        {skip}
      </div>
    </div>
  );
}
