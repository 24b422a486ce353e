import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { env } from '@/config/env';
import { CloseIcon, KeyIcon } from './icons';

/** Where the "dismissed" flag of each hint is kept (this browser only; a hint is a nudge, not a setting). */
export const SETUP_HINT_STORAGE_PREFIX = 'lumina-setup-hint:';

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

const isDismissed = (id: string) => storage()?.getItem(SETUP_HINT_STORAGE_PREFIX + id) === 'dismissed';

/**
 * A short note for the operator of this server (never for customers): some models are hidden because
 * no provider key is configured, with a link to the README section on provider keys. Shown until
 * dismissed; the dismissal is remembered in this browser.
 */
export function ProviderSetupHint({ id, hidden }: { id: string; hidden: number }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState(() => isDismissed(id));
  if (dismissed || hidden <= 0) return null;
  return (
    <aside
      data-testid="operator-setup-hint"
      aria-label={t('setupHint.label')}
      className="flex items-start gap-3 rounded-2xl bg-sky-50 px-4 py-3 text-sm text-sky-950 ring-1 ring-sky-200 ring-inset dark:bg-sky-500/10 dark:text-sky-100 dark:ring-sky-500/30"
    >
      <KeyIcon className="mt-0.5 size-4 shrink-0" />
      <p className="min-w-0 flex-1">
        {t('setupHint.body', { count: hidden })}{' '}
        <a
          href={env.providerDocsUrl}
          target="_blank"
          rel="noreferrer"
          className="font-semibold underline underline-offset-2"
        >
          {t('setupHint.link')}
        </a>
      </p>
      <button
        type="button"
        onClick={() => {
          storage()?.setItem(SETUP_HINT_STORAGE_PREFIX + id, 'dismissed');
          setDismissed(true);
        }}
        aria-label={t('setupHint.dismiss')}
        title={t('setupHint.dismiss')}
        data-testid="operator-setup-hint-dismiss"
        className="-mt-1 -mr-1 inline-flex size-8 shrink-0 items-center justify-center rounded-full hover:bg-sky-100 dark:hover:bg-sky-500/20"
      >
        <CloseIcon />
      </button>
    </aside>
  );
}
