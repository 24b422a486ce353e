import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/auth';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ButtonLink } from '@/components/ui/button-link';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { SparklesIcon } from '@/components/ui/icons';
import { ProductsView } from '@/features/products/components/products-view';

/** The Products page (public): every product on sale, bought here with money or credits. */
export default function ProductsRoute() {
  const { t } = useTranslation();
  const title = t('pages.products.title');
  useDocumentTitle(title);
  const signedIn = useSession((s) => s.status === 'signedIn');
  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <PageHeader icon={<SparklesIcon />} title={title} description={t('pages.products.description')} />
        {signedIn && (
          <div className="shrink-0">
            <ButtonLink to={paths.myProducts} variant="secondary">
              {t('nav.myProducts')}
            </ButtonLink>
          </div>
        )}
      </div>
      <ErrorBoundary>
        <ProductsView />
      </ErrorBoundary>
    </div>
  );
}
