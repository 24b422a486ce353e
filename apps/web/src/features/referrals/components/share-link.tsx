import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { panelClass } from './panel';

type CopyState = 'idle' | 'copied' | 'failed';

/** The link to share, with Copy and (where the browser can) Share. */
export function ShareLink({ link }: { link: string | null }) {
  const { t } = useTranslation();
  const [copy, setCopy] = useState<CopyState>('idle');
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  const copyLink = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  const shareLink = async () => {
    if (!link) return;
    try {
      await navigator.share({ title: t('referrals.shareTitle'), text: t('referrals.shareText'), url: link });
    } catch {
      // Closing the share sheet rejects too; there is nothing to tell the person.
    }
  };

  return (
    <section aria-labelledby="referral-link-title" className={panelClass}>
      <h2 id="referral-link-title" className="text-lg font-semibold">
        {t('referrals.yourLink')}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('referrals.yourLinkHint')}</p>
      {link ? (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-center">
          <input
            readOnly
            value={link}
            aria-label={t('referrals.yourLink')}
            data-testid="referral-link"
            onFocus={(event) => event.currentTarget.select()}
            className="min-w-0 flex-1 rounded-xl border border-zinc-300 bg-zinc-50 px-3 py-2.5 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-950"
          />
          <div className="flex gap-2">
            <Button look="primary" onClick={() => void copyLink()}>
              {copy === 'copied' ? t('referrals.copied') : t('referrals.copy')}
            </Button>
            {canShare && (
              <Button look="secondary" onClick={() => void shareLink()}>
                {t('referrals.share')}
              </Button>
            )}
          </div>
        </div>
      ) : (
        <p className="mt-4 text-sm">{t('referrals.noLink')}</p>
      )}
      {copy === 'failed' && (
        <Alert tone="warning" inline className="mt-2">
          {t('referrals.copyFailed')}
        </Alert>
      )}
    </section>
  );
}
