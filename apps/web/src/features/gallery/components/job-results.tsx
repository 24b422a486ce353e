import { useTranslation } from 'react-i18next';
import type { JobView } from '@lumina/contracts';
import { useJobImages } from '../api/list-images';
import { ImageGrid, type ImageGridProps } from './image-grid';
import { Alert } from '@/components/ui/alert';

/** A generation job's images as they finish, with a placeholder for each one still on its way. */
export function JobResults({
  job,
  ...props
}: { job: Pick<JobView, 'id' | 'image_ids' | 'num_images' | 'status'> } & Omit<
  ImageGridProps,
  'images' | 'placeholders'
>) {
  const { t } = useTranslation();
  const images = useJobImages(job.id, job.image_ids);
  const found = images.data?.items ?? [];
  const stillComing =
    job.status === 'queued' || job.status === 'running' ? job.num_images - job.image_ids.length : 0;
  // Finished images not loaded yet (a deleted one is simply gone once the fetch settles).
  const loading = images.isFetching || images.isPending ? job.image_ids.length - found.length : 0;
  return (
    <div data-testid="job-results">
      <ImageGrid
        images={found}
        placeholders={Math.max(0, stillComing) + Math.max(0, loading)}
        layout="batch"
        {...props}
      />
      {images.isError && (
        <Alert tone="error" inline className="mt-2">
          {images.error.message}
        </Alert>
      )}
      {found.length > 0 && found.every((image) => image.seed !== null) && (
        <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400" data-testid="seeds-used">
          {t('images.seedsUsed', { seeds: found.map((image) => image.seed).join(', ') })}
        </p>
      )}
    </div>
  );
}
