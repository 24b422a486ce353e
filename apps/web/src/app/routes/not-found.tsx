import { useTranslation } from 'react-i18next';
import { ButtonLink } from '@/components/ui/button-link';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { paths } from '@/config/paths';

export default function NotFoundRoute() {
  const { t } = useTranslation();
  const title = t('pages.notFound.title');
  useDocumentTitle(title);
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
      <p className="bg-gradient-to-br from-brand-500 to-fuchsia-500 bg-clip-text text-7xl font-black tracking-tight text-transparent">
        {t('pages.notFound.code')}
      </p>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      <p className="text-zinc-600 dark:text-zinc-400">{t('pages.notFound.description')}</p>
      <ButtonLink to={paths.home}>{t('placeholder.backHome')}</ButtonLink>
    </div>
  );
}
