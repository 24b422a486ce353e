import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, primaryNav } from '@/config/paths';
import { CloseIcon, CoinsIcon, MenuIcon } from '@/components/ui/icons';
import { ThemeToggle } from './theme-toggle';
import { Wordmark } from './wordmark';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium transition-colors ${
    isActive
      ? 'bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white'
      : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800/70 dark:hover:text-white'
  }`;

/** Placeholder until the credits feature reports a balance. */
function CreditBadge() {
  const { t } = useTranslation();
  return (
    <Link
      to={paths.credits}
      aria-label={t('header.creditsLabel')}
      data-testid="credit-badge"
      className="inline-flex items-center gap-1.5 rounded-full border border-zinc-200 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 transition-colors hover:border-brand-300 hover:text-brand-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:border-brand-500/60 dark:hover:text-brand-300"
    >
      <CoinsIcon className="size-4 text-amber-500" />
      <span className="tabular-nums">{t('header.creditsUnknown')}</span>
      <span className="hidden sm:inline">{t('header.creditsBadge')}</span>
    </Link>
  );
}

export function Header() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <header className="sticky top-0 z-40 border-b border-zinc-200/80 bg-white/80 backdrop-blur-md dark:border-zinc-800/80 dark:bg-zinc-950/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <Wordmark />
        <nav aria-label={t('nav.primary')} className="ml-6 hidden items-center gap-1 md:flex">
          {primaryNav.map((key) => (
            <NavLink key={key} to={paths[key]} className={navLinkClass}>
              {t(`nav.${key}`)}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          <CreditBadge />
          <ThemeToggle />
          <Link
            to={paths.auth}
            data-testid="sign-in"
            className="hidden rounded-xl bg-zinc-900 px-4 py-2 text-sm font-semibold text-white transition-colors hover:bg-zinc-700 sm:inline-flex dark:bg-white dark:text-zinc-900 dark:hover:bg-zinc-200"
          >
            {t('header.signIn')}
          </Link>
          <button
            type="button"
            onClick={() => setOpen((v) => !v)}
            aria-expanded={open}
            aria-controls="mobile-nav"
            aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
            className="inline-flex size-10 items-center justify-center rounded-xl text-xl text-zinc-700 hover:bg-zinc-100 md:hidden dark:text-zinc-200 dark:hover:bg-zinc-800"
          >
            {open ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>
      {open && (
        <nav
          id="mobile-nav"
          aria-label={t('nav.primary')}
          className="border-t border-zinc-200 px-4 pt-2 pb-4 md:hidden dark:border-zinc-800"
        >
          <ul className="flex flex-col gap-1">
            {[...primaryNav, 'credits' as const, 'referrals' as const, 'account' as const].map((key) => (
              <li key={key}>
                <NavLink to={paths[key]} className={navLinkClass} onClick={close}>
                  <span className="block">{t(`nav.${key}`)}</span>
                </NavLink>
              </li>
            ))}
            <li className="mt-2 sm:hidden">
              <Link
                to={paths.auth}
                onClick={close}
                className="flex justify-center rounded-xl bg-zinc-900 px-4 py-2.5 text-sm font-semibold text-white dark:bg-white dark:text-zinc-900"
              >
                {t('header.signIn')}
              </Link>
            </li>
          </ul>
        </nav>
      )}
    </header>
  );
}
