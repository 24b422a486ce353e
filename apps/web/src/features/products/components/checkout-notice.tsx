import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { useConfirmCheckout } from '../api/confirm-checkout';

/** Back from the checkout: confirms the payment once and says whether it arrived or is still on its way. */
export function CheckoutNotice({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation();
  const result = useConfirmCheckout(sessionId);
  if (result.isPending)
    return (
      <Alert tone="info" testId="checkout-notice">
        {t('products.checkout.confirming')}
      </Alert>
    );
  if (result.isError)
    return (
      <Alert tone="error" testId="checkout-notice">
        {result.error.message}
      </Alert>
    );
  const { status } = result.data;
  return (
    <Alert
      tone={status === 'paid' ? 'success' : status === 'pending' ? 'info' : 'error'}
      testId="checkout-notice"
    >
      {t(`products.checkout.${status}`)}
    </Alert>
  );
}
