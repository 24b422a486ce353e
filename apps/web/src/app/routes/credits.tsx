import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { CoinsIcon } from '@/components/ui/icons';
import { BalanceCard } from '@/features/credits/components/balance-card';
import { CheckoutCancelledNotice } from '@/features/credits/components/checkout-cancelled-notice';
import { CreditHistory } from '@/features/credits/components/credit-history';
import { CreditPackages } from '@/features/credits/components/credit-packages';
import { ManageBillingButton } from '@/features/credits/components/manage-billing-button';
import { TransactionsList } from '@/features/credits/components/transactions-list';
import { ReviewPrompt } from '@/features/reviews/components/review-prompt';

/** The Credits page: balance, packages to buy, the review prompt, payments and the ledger. */
export default function CreditsRoute() {
  const { t } = useTranslation();
  const title = t('pages.credits.title');
  useDocumentTitle(title);
  const [search] = useSearchParams();
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<CoinsIcon />} title={title} description={t('pages.credits.description')} />
      {search.get('checkout') === 'cancelled' && <CheckoutCancelledNotice />}
      <BalanceCard>
        <ManageBillingButton />
      </BalanceCard>
      <ErrorBoundary>
        <ReviewPrompt />
      </ErrorBoundary>
      <CreditPackages />
      <TransactionsList />
      <CreditHistory />
    </div>
  );
}
