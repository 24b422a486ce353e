import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TrashIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import { useDeleteTrainingSet } from '../api/training-sets';

/**
 * What to do with the set on the page besides adding to it: start a new one (this one stays stored,
 * and counts against the upload quota, until deleted) or delete its photos, which asks first.
 */
export function SetActions({
  setId,
  photoCount,
  onStartNew,
  onDeleted,
}: {
  setId: string;
  photoCount: number;
  onStartNew: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteTrainingSet();

  return (
    <div className="flex flex-wrap gap-3">
      <Button look="secondary" onClick={onStartNew} data-testid="training-new-set">
        {t('training.set.startNew')}
      </Button>
      <Button
        look="outline"
        className="text-red-700 dark:text-red-400"
        onClick={() => setConfirming(true)}
        data-testid="training-delete-set"
      >
        <TrashIcon />
        {t('training.set.delete')}
      </Button>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        labelledBy={`${ids}-confirm`}
        className="max-w-md p-6"
      >
        <h2 id={`${ids}-confirm`} className="text-lg font-semibold">
          {t('training.set.confirmTitle', { count: photoCount })}
        </h2>
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('training.set.confirmBody')}</p>
        {remove.error && (
          <Alert tone="error" className="mt-3" testId="training-delete-set-error">
            {remove.error.message}
          </Alert>
        )}
        <div className="mt-5 flex justify-end gap-2">
          <Button look="secondary" onClick={() => setConfirming(false)} data-autofocus>
            {t('training.set.keep')}
          </Button>
          <Button
            look="danger"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(setId, {
                onSuccess: () => {
                  setConfirming(false);
                  onDeleted();
                },
              })
            }
            data-testid="training-delete-set-confirm"
          >
            {t('training.set.confirmDelete')}
          </Button>
        </div>
      </Modal>
    </div>
  );
}
