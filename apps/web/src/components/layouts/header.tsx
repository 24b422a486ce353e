import { useState, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, primaryNav } from '@/config/paths';
import { CloseIcon, MenuIcon } from '@/components/ui/icons';
import { ThemeToggle } from './theme-toggle';
import { Wordmark } from './wordmark';

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm xl:px-2.5 font-medium transition-colors ${
    isActive
      ? 'bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-white'
      : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800/70 dark:hover:text-white'
  }`;

/** Where the account area goes: the bar (wide screens) or the open phone menu. */
export type AccountPlacement = 'bar' | 'menu';

export function Header({
  balance,
  renderAccount,
}: {
  /** The signed-in user's balance, supplied by the app like the account area. */
  balance?: ReactNode;
  /** The sign-in link or the signed-in user's menu, supplied by the app (the header knows no features). */
  renderAccount: (placement: AccountPlacement, closeMenu: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // The bar holds seven links beside the balance and the account area from 1280 px; narrower screens
  // use the menu (at 1024 px a signed-in header overflowed sideways).
  const close = () => setOpen(false);
  return (
    <header className="sticky top-0 z-40 border-b border-zinc-200/80 bg-white/80 backdrop-blur-md dark:border-zinc-800/80 dark:bg-zinc-950/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-3 px-4 sm:px-6">
        <Wordmark />
        <nav aria-label={t('nav.primary')} className="ml-4 hidden items-center gap-1 xl:flex">
          {primaryNav.map((key) => (
            <NavLink key={key} to={paths[key]} className={navLinkClass}>
              {t(`nav.${key}`)}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          {balance}
          <ThemeToggle />
          {renderAccount('bar', close)}
          <button
            type="button"
            onClick={() => setOpen((v) => !v)}
            aria-expanded={open}
            aria-controls="mobile-nav"
            aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
            className="inline-flex size-10 items-center justify-center rounded-xl text-xl text-zinc-700 hover:bg-zinc-100 xl:hidden dark:text-zinc-200 dark:hover:bg-zinc-800"
          >
            {open ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>
      {open && (
        <nav
          id="mobile-nav"
          aria-label={t('nav.primary')}
          className="border-t border-zinc-200 px-4 pt-2 pb-4 xl:hidden dark:border-zinc-800"
        >
          <ul className="flex flex-col gap-1">
            {[
              ...primaryNav,
              'myProducts' as const,
              'credits' as const,
              'referrals' as const,
              'account' as const,
            ].map((key) => (
              <li key={key}>
                <NavLink to={paths[key]} className={navLinkClass} onClick={close}>
                  <span className="block">{t(`nav.${key}`)}</span>
                </NavLink>
              </li>
            ))}
            <li className="mt-2">{renderAccount('menu', close)}</li>
          </ul>
        </nav>
      )}
    </header>
  );
}
