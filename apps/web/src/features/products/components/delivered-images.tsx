import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PurchaseView } from '@lumina/contracts';
import { Modal } from '@/components/ui/modal';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/alert';
import { CloseIcon, DownloadIcon } from '@/components/ui/icons';
import { useDownloadPurchase } from '../api/download-purchase';

/** A ready shoot's images as a grid (each opens larger) and "Download all" as one zip. */
export function DeliveredImages({ purchase }: { purchase: PurchaseView }) {
  const { t } = useTranslation();
  const download = useDownloadPurchase();
  const [open, setOpen] = useState<number | null>(null);
  const image = open === null ? undefined : purchase.images[open];
  const total = purchase.images.length;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {t('products.delivered', { count: total })}
        </p>
        <Button
          look="outline"
          onClick={() => download.mutate(purchase)}
          disabled={download.isPending || total === 0}
          data-testid="download-all"
        >
          <DownloadIcon />
          {download.isPending ? t('products.downloading') : t('products.downloadAll')}
        </Button>
      </div>
      {download.error && (
        <Alert tone="error" inline testId="download-error">
          {download.error.message}
        </Alert>
      )}
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4 lg:grid-cols-6" data-testid="delivered-images">
        {purchase.images.map((img, index) => (
          <li key={img.id}>
            <button
              type="button"
              onClick={() => setOpen(index)}
              aria-label={t('products.openImage', { n: index + 1, total })}
              className="block w-full overflow-hidden rounded-xl focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              <img
                src={img.thumbnail_url}
                alt=""
                loading="lazy"
                className="aspect-square w-full object-cover"
              />
            </button>
          </li>
        ))}
      </ul>
      <Modal
        open={image !== undefined}
        onClose={() => setOpen(null)}
        label={t('products.imageOf', { n: (open ?? 0) + 1, total, name: purchase.product_name })}
        className="max-w-3xl"
        onKeyDown={(event) => {
          if (open === null) return;
          if (event.key === 'ArrowRight') setOpen((open + 1) % total);
          if (event.key === 'ArrowLeft') setOpen((open - 1 + total) % total);
        }}
      >
        {image && (
          <div className="relative">
            <img
              src={image.url}
              alt={t('products.imageOf', { n: (open ?? 0) + 1, total, name: purchase.product_name })}
              className="max-h-[80dvh] w-full rounded-2xl object-contain"
              data-testid="delivered-image-large"
            />
            <Button
              look="icon"
              onClick={() => setOpen(null)}
              aria-label={t('products.close')}
              data-autofocus
              className="absolute top-2 right-2 bg-white/80 dark:bg-zinc-900/80"
            >
              <CloseIcon />
            </Button>
          </div>
        )}
      </Modal>
    </div>
  );
}
