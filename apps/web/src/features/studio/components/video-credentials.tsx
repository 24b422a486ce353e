import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VideoView } from '@lumina/contracts';
import { CredentialsSummary } from '@/components/credentials/credentials-summary';
import { useCredentials } from '@/components/credentials/use-credentials';

/**
 * A finished video's "Content credentials", folded until opened: reading them means reading the whole
 * MP4 on the server, so a list of videos asks only for the ones a person looks at.
 */
export function VideoCredentials({ video }: { video: Pick<VideoView, 'id' | 'created_at'> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const query = useCredentials('video', video.id, open);
  return (
    <details
      data-testid="video-credentials"
      onToggle={(event) => setOpen(event.currentTarget.open)}
      className="rounded-xl bg-zinc-50 px-3 py-2 ring-1 ring-zinc-200 dark:bg-zinc-900 dark:ring-zinc-800"
    >
      <summary className="cursor-pointer text-xs font-semibold">{t('gallery.credentials.title')}</summary>
      <div className="mt-1">
        {query.data ? (
          <CredentialsSummary credentials={query.data} createdAt={video.created_at} subject="video" />
        ) : (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            {query.isError ? t('gallery.credentials.failed') : t('gallery.credentials.loading')}
          </p>
        )}
      </div>
    </details>
  );
}
