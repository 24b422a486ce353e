import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { buttonClass } from '@/components/ui/button-link';

/** Router-level fallback: a thrown 404 reads as "not found", anything else as an unexpected error. */
export function RouteErrorFallback() {
  const error = useRouteError();
  const { t } = useTranslation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <div
      role="alert"
      className="mx-auto flex min-h-dvh max-w-lg flex-col items-center justify-center gap-4 p-6 text-center"
    >
      <h1 className="text-2xl font-bold tracking-tight">
        {notFound ? t('pages.notFound.title') : t('errors.routeTitle')}
      </h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        {notFound ? t('pages.notFound.description') : t('errors.routeBody')}
      </p>
      <Link to={paths.home} className={buttonClass('secondary')}>
        {t('placeholder.backHome')}
      </Link>
    </div>
  );
}
