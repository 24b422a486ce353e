import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { useSignOut } from '@/lib/use-sign-out';
import { UserIcon } from '@/components/ui/icons';
import { useUser } from '../api/get-user';

const signInClass =
  'rounded-xl bg-zinc-900 px-4 py-2 text-sm font-semibold text-white transition-colors hover:bg-zinc-700 dark:bg-white dark:text-zinc-900 dark:hover:bg-zinc-200';
const signOutClass =
  'shrink-0 whitespace-nowrap rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm font-semibold text-zinc-800 transition-colors hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800';

/** The signed-in user's email, or the spec's profile-failure message when it could not be loaded. */
function ProfileLabel({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const { profile, error, isLoading } = useUser();
  if (profile.email) {
    return (
      <span data-testid="user-email" className={`truncate ${className}`} title={profile.email}>
        {profile.email}
      </span>
    );
  }
  if (error) {
    return (
      <span data-testid="profile-error" className={`truncate text-red-600 dark:text-red-400 ${className}`}>
        {t(`auth.profileErrors.${error}`)}
      </span>
    );
  }
  return isLoading ? (
    <span
      aria-hidden="true"
      className={`inline-block h-4 w-32 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800 ${className}`}
    />
  ) : null;
}

/** The operator console's vendors page, for operators only (ADMIN_EMAILS). */
function OperatorLink({ className, onNavigate }: { className: string; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { profile } = useUser();
  if (!profile.isOperator) return null;
  return (
    <Link
      to={paths.operatorVendors}
      onClick={onNavigate}
      data-testid="operator-vendors-link"
      className={`${className} text-sm font-medium text-zinc-700 transition-colors hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800`}
    >
      {t('header.operatorVendors')}
    </Link>
  );
}

/** Header account area: "Sign in" when signed out; email, account link and "Sign out" when signed in. */
export function UserMenu({ placement, onNavigate }: { placement: 'bar' | 'menu'; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const status = useSession((s) => s.status);
  const { signOut: doSignOut, pending } = useSignOut();

  if (status === 'unknown') {
    return placement === 'bar' ? (
      <span
        aria-hidden="true"
        className="hidden h-9 w-20 animate-pulse rounded-xl bg-zinc-100 sm:inline-block dark:bg-zinc-800"
      />
    ) : null;
  }

  if (status === 'signedOut') {
    return placement === 'bar' ? (
      <Link to={paths.auth} data-testid="sign-in" className={`hidden sm:inline-flex ${signInClass}`}>
        {t('header.signIn')}
      </Link>
    ) : (
      <Link
        to={paths.auth}
        onClick={onNavigate}
        className={`flex justify-center py-2.5 sm:hidden ${signInClass}`}
      >
        {t('header.signIn')}
      </Link>
    );
  }

  const handleSignOut = () => {
    onNavigate?.();
    void doSignOut();
  };

  if (placement === 'menu') {
    return (
      <div className="flex flex-col gap-2 sm:hidden">
        <p className="flex min-w-0 items-center gap-2 px-3 text-sm text-zinc-600 dark:text-zinc-400">
          <UserIcon className="size-4 shrink-0" />
          <ProfileLabel />
        </p>
        <OperatorLink className="px-3 py-2" onNavigate={onNavigate} />
        <button type="button" onClick={handleSignOut} disabled={pending} className={signOutClass}>
          {t('header.signOut')}
        </button>
      </div>
    );
  }

  return (
    <div className="hidden items-center gap-2 sm:flex" data-testid="user-menu">
      <Link
        to={paths.account}
        aria-label={t('header.accountLabel')}
        className="flex max-w-[10rem] min-w-0 items-center gap-2 rounded-xl px-2 py-2 2xl:max-w-[14rem] text-sm font-medium text-zinc-700 transition-colors hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800"
      >
        <UserIcon className="size-4 shrink-0 text-brand-600 dark:text-brand-400" />
        <ProfileLabel className="hidden lg:inline" />
      </Link>
      <OperatorLink className="rounded-xl px-2 py-2" />
      <button
        type="button"
        onClick={handleSignOut}
        disabled={pending}
        data-testid="sign-out"
        className={signOutClass}
      >
        {t('header.signOut')}
      </button>
    </div>
  );
}
