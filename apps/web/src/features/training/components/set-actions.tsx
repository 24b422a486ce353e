import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TrashIcon } from '@/components/ui/icons';
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
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t('training.set.confirmTitle', { count: photoCount })}
        body={t('training.set.confirmBody')}
        error={remove.error?.message}
        keepLabel={t('training.set.keep')}
        confirmLabel={t('training.set.confirmDelete')}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(setId, {
            onSuccess: () => {
              setConfirming(false);
              onDeleted();
            },
          })
        }
        testId="training-delete-set"
      />
    </div>
  );
}
