import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { ImagesIcon } from '@/components/ui/icons';
import { CheckoutNotice } from '@/features/products/components/checkout-notice';
import { MyProductsView } from '@/features/products/components/my-products-view';
import { ReviewPrompt } from '@/features/reviews/components/review-prompt';

/** My products: what the person bought and where each is; the checkout returns here with `?session_id=`. */
export default function MyProductsRoute() {
  const { t } = useTranslation();
  const title = t('pages.myProducts.title');
  useDocumentTitle(title);
  const [search] = useSearchParams();
  const sessionId = search.get('session_id') ?? '';
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<ImagesIcon />} title={title} description={t('pages.myProducts.description')} />
      {sessionId && <CheckoutNotice sessionId={sessionId} />}
      <ErrorBoundary>
        <ReviewPrompt />
      </ErrorBoundary>
      <ErrorBoundary>
        <MyProductsView />
      </ErrorBoundary>
    </div>
  );
}
