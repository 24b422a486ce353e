import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { DevCheckout } from '@/features/credits/components/dev-checkout';

/** The development stand-in for Stripe Checkout: `?session_id=…`, only reachable when Stripe is not set up. */
export default function CreditsDevCheckoutRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('credits.devCheckout.title'));
  const [search] = useSearchParams();
  return <DevCheckout sessionId={search.get('session_id') ?? ''} />;
}
