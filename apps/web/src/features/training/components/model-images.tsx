import { useTranslation } from 'react-i18next';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useModelImages } from '../api/model-images';

/** The newest images the person made with one model, as small thumbnails that open the full image. */
export function ModelImages({ modelId }: { modelId: string }) {
  const { t } = useTranslation();
  const images = useModelImages(modelId, true);
  if (images.isPending) return <LoadingBlock className="py-6" />;
  if (images.isError)
    return <QueryError error={images.error} onRetry={() => void images.refetch()} compact />;
  if (images.data.items.length === 0)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('training.models.noImages')}</p>;
  return (
    <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" data-testid="model-images">
      {images.data.items.map((image) => (
        <li key={image.id}>
          <a
            href={image.url}
            target="_blank"
            rel="noreferrer"
            className="block overflow-hidden rounded-xl focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            <img
              src={image.thumbnail_url}
              alt={image.prompt ?? t('training.models.imageAlt')}
              className="aspect-square w-full object-cover"
              loading="lazy"
              data-testid="model-image"
              data-image-id={image.id}
            />
          </a>
        </li>
      ))}
    </ul>
  );
}
