import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';

const linkClass = 'hover:text-zinc-900 dark:hover:text-white transition-colors';

export function Footer({ status }: { status?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-zinc-500 sm:flex-row sm:items-center sm:justify-between sm:px-6 dark:text-zinc-400">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
          <span>{t('footer.copyright', { year: new Date().getFullYear() })}</span>
          {status}
        </div>
        <nav className="flex flex-wrap gap-x-5 gap-y-2">
          <Link to={paths.referrals} className={linkClass}>
            {t('footer.referrals')}
          </Link>
          <Link to={paths.terms} className={linkClass}>
            {t('footer.terms')}
          </Link>
          <Link to={paths.privacy} className={linkClass}>
            {t('footer.privacy')}
          </Link>
        </nav>
      </div>
    </footer>
  );
}
