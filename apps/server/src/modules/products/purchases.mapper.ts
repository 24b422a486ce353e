import type { ProductView, PurchaseStatus, PurchaseView } from '@lumina/contracts';
import { TRAINING_MAX_PHOTOS, TRAINING_MIN_PHOTOS } from '@lumina/contracts';
import type { UrlSigner } from '../../adapters/storage/signed-url-cache.ts';
import type { PaymentRow, PurchaseRow } from '../../db/schema/index.ts';
import { IMAGE_URL_TTL_SECONDS } from '../images/images.mapper.ts';
import { shootImages, type Product } from './product-catalogue.ts';
import type { DeliveredImage, PurchaseJob } from './purchases.repository.ts';

export function toProductView(p: Product, review: { average: number; count: number }): ProductView {
  const shoot = p.kind === 'photo_shoot';
  return {
    id: p.id,
    kind: p.kind,
    name: p.name,
    description: p.description,
    // As the operator wrote them: a path on the web app stays relative, so it resolves there.
    cover_urls: [...p.covers],
    price: p.price ? { amount_cents: p.price.cents, currency: p.price.currency } : null,
    price_credits: shoot ? (p.priceCredits ?? null) : null,
    badge: p.badge ?? null,
    credits: shoot ? null : p.credits,
    images: shoot ? shootImages(p) : null,
    min_photos: shoot ? TRAINING_MIN_PHOTOS : null,
    max_photos: shoot ? TRAINING_MAX_PHOTOS : null,
    review,
  };
}

/** A purchase's live progress, from its status and the jobs that are its stages. */
function progress(row: PurchaseRow, jobs: readonly PurchaseJob[]): PurchaseView['progress'] {
  const total = row.imagesTotal;
  const generations = jobs.filter((j) => j.kind !== 'train');
  const done = Math.min(
    total,
    generations.filter((j) => j.status === 'succeeded').reduce((n, j) => n + j.numImages, 0),
  );
  const training = jobs.findLast((j) => j.kind === 'train');
  const status = row.status as PurchaseStatus;
  if (row.kind === 'credits' || status === 'ready') {
    return { stage: 'done', percent: 100, images_done: done, images_total: total };
  }
  if (status === 'waiting_for_photos')
    return { stage: 'photos', percent: null, images_done: 0, images_total: total };
  if (status === 'training')
    return { stage: 'training', percent: training?.percent ?? null, images_done: 0, images_total: total };
  if (status === 'generating') {
    return {
      stage: 'generating',
      percent: total > 0 ? Math.floor((done * 100) / total) : null,
      images_done: done,
      images_total: total,
    };
  }
  // Failed or refunded: where it stopped.
  const stage = generations.length > 0 ? 'generating' : training ? 'training' : 'photos';
  return { stage, percent: null, images_done: done, images_total: total };
}

export async function toPurchaseView(
  urls: UrlSigner,
  row: PurchaseRow,
  related: { payment?: PaymentRow; jobs: readonly PurchaseJob[]; images: readonly DeliveredImage[] },
): Promise<PurchaseView> {
  const { payment } = related;
  const product = row.product as { name?: string; credits?: number };
  const sign = (key: string) => urls.url(key, { expiresInSeconds: IMAGE_URL_TTL_SECONDS });
  return {
    id: row.id,
    product_id: row.productId,
    product_name: product.name ?? row.productId,
    kind: row.kind as PurchaseView['kind'],
    status: row.status as PurchaseStatus,
    paid_with: row.paidWith as PurchaseView['paid_with'],
    amount_cents: payment?.amountCents ?? null,
    currency: payment?.currency ?? null,
    credits_spent: row.creditsSpent,
    payment_id: row.paymentId,
    set_id: row.setId,
    model_id: row.trainedModelId,
    progress: progress(row, related.jobs),
    error: row.error,
    images: await Promise.all(
      related.images.map(async (image) => ({
        id: image.id,
        url: await sign(image.storageKey),
        thumbnail_url: await sign(image.thumbnailKey),
      })),
    ),
    credits_added: row.kind === 'credits' ? (payment?.credits ?? product.credits ?? null) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
