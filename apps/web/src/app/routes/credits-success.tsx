import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { CoinsIcon } from '@/components/ui/icons';
import { PaymentSuccess } from '@/features/credits/components/payment-success';
import { ReviewPrompt } from '@/features/reviews/components/review-prompt';

/** Where Stripe Checkout (or the development checkout) returns after paying: `?session_id=…`. */
export default function CreditsSuccessRoute() {
  const { t } = useTranslation();
  const title = t('credits.success.title');
  useDocumentTitle(title);
  const [search] = useSearchParams();
  const sessionId = search.get('session_id') ?? '';
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-8">
      <PageHeader icon={<CoinsIcon />} title={title} description={t('credits.success.description')} />
      <PaymentSuccess sessionId={sessionId} />
      <ErrorBoundary>
        <ReviewPrompt />
      </ErrorBoundary>
    </div>
  );
}
