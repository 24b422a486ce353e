import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';

export function Wordmark() {
  const { t } = useTranslation();
  return (
    <Link to={paths.home} className="flex shrink-0 items-center gap-2 rounded-lg" aria-label={t('nav.home')}>
      <span
        aria-hidden="true"
        className="flex size-8 items-center justify-center rounded-lg bg-gradient-to-br from-brand-500 to-fuchsia-500 text-white shadow-sm shadow-brand-500/30"
      >
        <svg viewBox="0 0 24 24" className="size-4" fill="currentColor">
          <path d="M12 2l2.4 7.6L22 12l-7.6 2.4L12 22l-2.4-7.6L2 12l7.6-2.4z" />
        </svg>
      </span>
      <span className="text-lg font-bold tracking-tight">{t('app.name')}</span>
    </Link>
  );
}
