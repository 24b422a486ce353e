import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { CredentialsSummary } from '@/components/credentials/credentials-summary';
import { useCredentials } from '@/components/credentials/use-credentials';

/** The lightbox's "Content credentials" panel: only for a person's own images (the route is owner only). */
export function ContentCredentials({ image }: { image: Pick<ImageView, 'id' | 'is_own' | 'created_at'> }) {
  const { t } = useTranslation();
  const headingId = useId();
  const query = useCredentials('image', image.id, image.is_own);
  if (!image.is_own) return null;
  return (
    <section
      aria-labelledby={headingId}
      data-testid="content-credentials"
      className="rounded-2xl bg-zinc-50 p-4 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
    >
      <h3 id={headingId} className="mb-1 text-sm font-semibold">
        {t('gallery.credentials.title')}
      </h3>
      {query.data ? (
        <CredentialsSummary credentials={query.data} createdAt={image.created_at} />
      ) : (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          {query.isError ? t('gallery.credentials.failed') : t('gallery.credentials.loading')}
        </p>
      )}
    </section>
  );
}
