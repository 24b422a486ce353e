import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { BuyProductRequest, ProductView } from '@lumina/contracts';
import { RequestError } from '@/components/forms/action-bar';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/query-states';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formatPrice } from '@/lib/money';
import { useBuyProduct } from '../api/buy-product';
import { usePendingImageSets } from '../api/pending-image-sets';
import { useProductPrice } from './product-offer';
import { useOnboardingProduct } from './product-step';

type PayWith = BuyProductRequest['pay_with'];

/** How this product can be paid for, money first. */
const payOptions = (product: ProductView): PayWith[] => [
  ...(product.price ? (['money'] as const) : []),
  ...(product.price_credits !== null ? (['credits'] as const) : []),
];

/**
 * The buy request: the price the person was shown (so a changed price is refused, 409, and shown again),
 * the photo set, and where a money checkout comes back to (My products when paid, here when cancelled).
 */
export function buyRequest(
  product: ProductView,
  payWith: PayWith,
  setId: string | null,
  origin: string,
): BuyProductRequest {
  return {
    pay_with: payWith,
    ...(setId ? { set_id: setId } : {}),
    ...(payWith === 'money'
      ? {
          ...(product.price ? { expected_price: product.price } : {}),
          success_url: `${origin}${paths.myProducts}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${origin}${paths.onboarding}?step=checkout`,
        }
      : product.price_credits !== null
        ? { expected_credits: product.price_credits }
        : {}),
  };
}

/**
 * Step 4: pay for the onboarding product with money (to the checkout: Stripe or the development one) or
 * with credits (charged now; on to My products). A price changed since the page loaded is refused by the
 * server; the product is fetched again and its new price shown, and the person is asked again.
 */
export function CheckoutStep({
  setId,
  onBack,
  onCheckout,
  onBoughtWithCredits,
  skip,
}: {
  setId: string | null;
  onBack: () => void;
  onCheckout: (url: string) => void;
  onBoughtWithCredits: (to: string) => void;
  skip: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const { query, product, message } = useOnboardingProduct();
  const pending = usePendingImageSets();
  const buy = useBuyProduct();
  const price = useProductPrice();
  const [chosen, setChosen] = useState<PayWith | null>(null);
  const [priceChanged, setPriceChanged] = useState(false);

  if (query.isPending) return <LoadingBlock className="py-10" />;

  const options = product ? payOptions(product) : [];
  const payWith = chosen && options.includes(chosen) ? chosen : (options[0] ?? null);
  const photoCount = pending.data?.sets.find((s) => s.id === setId)?.photos.length ?? 0;

  function submit() {
    if (!product || !payWith) return;
    setPriceChanged(false);
    buy.mutate(
      { productId: product.id, request: buyRequest(product, payWith, setId, window.location.origin) },
      {
        onSuccess: (result) => {
          if (result.checkout) onCheckout(result.checkout.url);
          else onBoughtWithCredits(paths.myProducts);
        },
        onError: async (error) => {
          if (error instanceof ApiError && error.status === 409) {
            await query.refetch();
            setPriceChanged(true);
          }
        },
      },
    );
  }

  const label = (option: PayWith) =>
    option === 'money' && product?.price
      ? t('onboarding.checkout.money', {
          price: formatPrice(product.price.amount_cents, product.price.currency, i18n.language),
        })
      : t('onboarding.checkout.creditsOption', { count: product?.price_credits ?? 0 });

  return (
    <div className="flex flex-col gap-4" data-testid="onboarding-checkout">
      {message !== null ? (
        <Alert tone="error" testId="onboarding-products-error">
          {message}
        </Alert>
      ) : !product ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('onboarding.product.none')}</p>
      ) : (
        <>
          <div>
            <h3 className="text-lg font-semibold">{product.name}</h3>
            <p className="text-sm tabular-nums" data-testid="onboarding-checkout-price">
              {price(product)}
            </p>
          </div>
          {product.kind === 'photo_shoot' && (
            <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="onboarding-checkout-photos">
              {setId && photoCount > 0
                ? t('onboarding.checkout.photos', { count: photoCount })
                : t('onboarding.checkout.noPhotos')}
            </p>
          )}
          {options.length > 1 && (
            <fieldset className="min-w-0">
              <legend className="mb-2 text-sm font-semibold">{t('onboarding.checkout.payWith')}</legend>
              <div className="flex flex-wrap gap-2">
                {options.map((option) => (
                  <label
                    key={option}
                    className={`cursor-pointer rounded-xl border px-3 py-2 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-brand-500 ${
                      payWith === option
                        ? 'border-brand-500 bg-brand-50 text-brand-800 dark:border-brand-400 dark:bg-brand-500/15 dark:text-brand-200'
                        : 'border-zinc-300 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800'
                    }`}
                  >
                    <input
                      type="radio"
                      name={`${ids}-pay`}
                      value={option}
                      checked={payWith === option}
                      onChange={() => setChosen(option)}
                      className="sr-only"
                    />
                    {label(option)}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
          {priceChanged && (
            <Alert tone="warning" testId="onboarding-price-changed">
              {t('onboarding.checkout.priceChanged', { price: price(product) })}
            </Alert>
          )}
          {buy.error && !priceChanged && (
            <RequestError testId="onboarding-buy-error">{buy.error.message}</RequestError>
          )}
        </>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <Button look="secondary" onClick={onBack}>
          {t('onboarding.back')}
        </Button>
        <Button
          look="cta"
          onClick={submit}
          disabled={!product || !payWith || buy.isPending}
          data-testid="onboarding-buy"
        >
          {buy.isPending && <Spinner className="size-4 border-white/40 border-t-white" />}
          {t('onboarding.checkout.buy', { name: product?.name ?? '' })}
        </Button>
        {skip}
      </div>
    </div>
  );
}
