import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ButtonLink } from '@/components/ui/button-link';
import { CoinsIcon } from '@/components/ui/icons';

/** Where a cancelled checkout returns: nothing was charged. */
export default function CreditsCancelRoute() {
  const { t } = useTranslation();
  const title = t('credits.cancel.title');
  useDocumentTitle(title);
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-8">
      <PageHeader icon={<CoinsIcon />} title={title} description={t('credits.cancel.body')} />
      <div>
        <ButtonLink to={paths.credits}>{t('credits.cancel.back')}</ButtonLink>
      </div>
    </div>
  );
}
