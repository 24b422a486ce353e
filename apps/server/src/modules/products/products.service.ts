import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  TRAINING_MAX_PHOTOS,
  TRAINING_MIN_PHOTOS,
  type BuyProductRequest,
  type ProductView,
  type PurchaseView,
} from '@lumina/contracts';
import type { ModelEntry } from '../../adapters/providers/catalogue.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database, Tx } from '../../db/client.ts';
import type { PurchaseRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import type { CreditLedger } from '../credits/credit-ledger.service.ts';
import { readBalance } from '../credits/credits.repository.ts';
import type { CheckoutItem, PaymentsService } from '../payments/payments.service.ts';
import type { ReviewsService } from '../reviews/reviews.service.ts';
import type { TrainingSetsService } from '../training-sets/training-sets.service.ts';
import { shootImages, type Product } from './product-catalogue.ts';
import { purchaseZip, zipFilename } from './purchase-download.ts';
import type { ShootPipeline, ShootStarted } from './purchase-pipeline.ts';
import { formatMoney, purchaseReference } from './purchase-refunds.ts';
import { toProductView, toPurchaseView } from './purchases.mapper.ts';
import * as repo from './purchases.repository.ts';

/** Purchase states after which nothing is delivered. */
const ENDED: readonly string[] = ['failed', 'refunded', 'cancelled'];

export interface ProductsDeps {
  db: Database;
  /** config.products: the first is the onboarding product. */
  products: readonly Product[];
  /** The model catalogue, to check each shoot's trainer and aspect ratios at start-up. */
  models: readonly ModelEntry[];
  /** The trainer vendor used when a shoot names no trainer (config.providers.trainer). */
  trainerVendor: string;
  ledger: CreditLedger;
  payments: PaymentsService;
  reviews: ReviewsService;
  trainingSets: TrainingSetsService;
  pipeline: ShootPipeline;
  /** After the commit of a transaction that called `pipeline.start`. */
  started: ShootStarted;
  storage: Storage;
  /** Where the web app lives: a money checkout returns to My products there. */
  webUrl: string;
}

/**
 * A photo shoot's `shoot.trainer` must name a `train` model of the catalogue. Checked when the server
 * starts, so a typo stops it with the setting's name rather than failing a paid purchase later.
 */
export function checkTrainers(products: readonly Product[], models: readonly ModelEntry[]): void {
  const trainers = models.filter((m) => m.capability === 'train').map((m) => m.id);
  for (const p of products) {
    if (p.kind === 'photo_shoot' && p.shoot.trainer && !trainers.includes(p.shoot.trainer)) {
      throw new Error(
        `PRODUCTS_JSON / PRODUCTS_FILE: product "${p.id}" names trainer "${p.shoot.trainer}", which is not a train model of the catalogue (${trainers.join(', ') || 'none'}).`,
      );
    }
  }
}

/**
 * Each prompt's `aspectRatio` must be one the shoot's trained model can make: its trainer's base
 * text-to-image model's (the named trainer, else the default vendor's trainers). Checked at start-up
 * like the trainer, so a bad ratio stops the server rather than failing (and refunding) paid shoots.
 */
export function checkShootRatios(
  products: readonly Product[],
  models: readonly ModelEntry[],
  trainerVendor: string,
): void {
  for (const p of products) {
    if (p.kind !== 'photo_shoot') continue;
    const trainers = models.filter(
      (m) =>
        m.capability === 'train' &&
        (p.shoot.trainer ? m.id === p.shoot.trainer : m.provider === trainerVendor),
    );
    for (const trainer of trainers) {
      if (trainer.capability !== 'train') continue;
      const base = models.find((m) => m.id === trainer.baseModelId && m.capability === 'text-to-image');
      if (!base || base.capability !== 'text-to-image') continue;
      const bad = p.shoot.prompts.find((shot) => !base.aspectRatios.includes(shot.aspectRatio));
      if (bad) {
        throw new Error(
          `PRODUCTS_JSON / PRODUCTS_FILE: product "${p.id}" asks for aspect ratio "${bad.aspectRatio}", which "${base.id}" (the base model of trainer "${trainer.id}") does not make (${base.aspectRatios.join(', ')}).`,
        );
      }
    }
  }
}

/**
 * Products on sale and what people bought: buying with credits (charged now) or money (one checkout
 * path, PaymentsService.startCheckout), the buyer's purchases with live progress, adding photos to a
 * shoot that waits for them, and the delivered set as one zip. Delivering a shoot is the pipeline's.
 */
export class ProductsService {
  constructor(private readonly deps: ProductsDeps) {
    checkTrainers(deps.products, deps.models);
    checkShootRatios(deps.products, deps.models, deps.trainerVendor);
  }

  async list(): Promise<ProductView[]> {
    const ratings = await this.deps.reviews.summary();
    return this.deps.products.map((p) => {
      const rating = ratings.find((r) => r.productId === p.id);
      return toProductView(p, { average: rating?.average ?? 0, count: rating?.count ?? 0 });
    });
  }

  private product(id: string): Product {
    const product = this.deps.products.find((p) => p.id === id);
    if (!product) throw notFound('This product');
    return product;
  }

  /** The caller's set, with the photo count a photo shoot trains on; another's or none is a 404. */
  private async checkSet(userId: string, setId: string): Promise<void> {
    const set = await this.deps.trainingSets.ownedSet(userId, setId);
    if (!set) throw notFound('This photo set');
    if (set.photoCount < TRAINING_MIN_PHOTOS || set.photoCount > TRAINING_MAX_PHOTOS) {
      throw new AppError(
        'VALIDATION_FAILED',
        `This photo set has ${set.photoCount} ${set.photoCount === 1 ? 'photo' : 'photos'}; a photo shoot needs ${TRAINING_MIN_PHOTOS} to ${TRAINING_MAX_PHOTOS}.`,
      );
    }
  }

  async buy(
    userId: string,
    productId: string,
    body: BuyProductRequest,
  ): Promise<{
    purchase: PurchaseView | null;
    checkout: { url: string; sessionId: string } | null;
    balance: number | null;
  }> {
    const product = this.product(productId);
    const credits = product.kind === 'photo_shoot' ? product.priceCredits : undefined;
    const money = product.price;
    const moneyText = money ? formatMoney(money.cents, money.currency) : '';
    if (body.pay_with === 'credits' && !credits) {
      throw new AppError('VALIDATION_FAILED', `${product.name} is sold for money only (${moneyText}).`);
    }
    if (body.pay_with === 'money' && !money) {
      throw new AppError(
        'VALIDATION_FAILED',
        `${product.name} is sold for credits only (${credits} credits).`,
      );
    }
    const changed = (now: string) =>
      new AppError('CONFLICT', `The price of ${product.name} is now ${now}. Please check it and buy again.`);
    if (body.pay_with === 'money' && body.expected_price) {
      const shown = body.expected_price;
      if (shown.amount_cents !== money!.cents || shown.currency.toLowerCase() !== money!.currency) {
        throw changed(moneyText);
      }
    }
    if (
      body.pay_with === 'credits' &&
      body.expected_credits !== undefined &&
      body.expected_credits !== credits
    ) {
      throw changed(`${credits} credits`);
    }
    if (body.set_id !== undefined) {
      if (product.kind !== 'photo_shoot')
        throw new AppError('VALIDATION_FAILED', `${product.name} is a credit package: it takes no photos.`);
      await this.checkSet(userId, body.set_id);
    }
    const base = {
      userId,
      productId: product.id,
      kind: product.kind,
      product: { ...product } as Record<string, unknown>,
      setId: body.set_id ?? null,
      imagesTotal: product.kind === 'photo_shoot' ? shootImages(product) : 0,
    };

    if (body.pay_with === 'credits') {
      const id = randomUUID();
      const { row, balance } = await this.deps.db.transaction(async (tx) => {
        const row = await repo.insertPurchase(tx, {
          ...base,
          id,
          paidWith: 'credits',
          creditsSpent: credits!,
          status: 'waiting_for_photos',
          paidAt: new Date(),
        });
        await this.deps.ledger.spend(
          { userId, amount: credits!, reference: purchaseReference(id), reason: 'purchase', fresh: true },
          tx,
        );
        await this.deps.pipeline.start(tx, row);
        // Read after start: a shoot that cannot start is refunded at once, in this transaction.
        return { row, balance: await readBalance(tx, userId) };
      });
      this.deps.started(userId);
      return { purchase: await this.one(userId, row.id), checkout: null, balance };
    }

    const item: CheckoutItem = {
      productId: product.id,
      name: product.name,
      credits: product.kind === 'credits' ? product.credits : 0,
      amountCents: money!.cents,
      currency: money!.currency,
      ...(product.stripePriceId ? { stripePriceId: product.stripePriceId } : {}),
    };
    const checkout = await this.deps.payments.startCheckout(userId, {
      item,
      successUrl: body.success_url,
      cancelUrl: body.cancel_url,
      defaults: {
        successUrl: `${this.deps.webUrl}/my-products?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.deps.webUrl}/products?checkout=cancelled`,
      },
      within: async (tx, payment) => {
        await repo.insertPurchase(tx, { ...base, paidWith: 'money', paymentId: payment.id });
      },
    });
    return { purchase: null, checkout, balance: null };
  }

  private async views(userId: string, rows: PurchaseRow[]): Promise<PurchaseView[]> {
    const { db, storage } = this.deps;
    const ids = rows.map((r) => r.id);
    const [payments, jobs, images] = await Promise.all([
      repo.paymentsByIds(
        db,
        rows.flatMap((r) => (r.paymentId ? [r.paymentId] : [])),
      ),
      repo.jobsOf(db, ids),
      repo.deliveredImages(db, userId, ids),
    ]);
    return Promise.all(
      rows.map((row) =>
        toPurchaseView(storage, row, {
          payment: payments.find((p) => p.id === row.paymentId),
          jobs: jobs.filter((j) => j.purchaseId === row.id),
          images: images.filter((i) => i.purchaseId === row.id),
        }),
      ),
    );
  }

  async mine(userId: string): Promise<PurchaseView[]> {
    return this.views(userId, await repo.listOwnPurchases(this.deps.db, userId));
  }

  private async own(userId: string, id: string): Promise<PurchaseRow> {
    const row = await repo.findOwnPurchase(this.deps.db, userId, id);
    if (!row) throw notFound('This purchase');
    return row;
  }

  async one(userId: string, id: string): Promise<PurchaseView> {
    const [view] = await this.views(userId, [await this.own(userId, id)]);
    return view!;
  }

  /** A photo shoot waiting for photos gets its set, and the pipeline starts training it. */
  async attachPhotos(userId: string, id: string, setId: string): Promise<PurchaseView> {
    const purchase = await this.own(userId, id);
    // Say why in the purchase's own terms: an ended purchase never takes photos again.
    const notWaiting = () =>
      new AppError(
        'CONFLICT',
        purchase.kind !== 'photo_shoot'
          ? 'A credit package takes no photos.'
          : ENDED.includes(purchase.status)
            ? 'This purchase has ended without a delivery: buy the product again to use these photos.'
            : 'This purchase is not waiting for photos: it has them already.',
      );
    if (purchase.status !== 'waiting_for_photos') throw notWaiting();
    await this.checkSet(userId, setId);
    await this.deps.db.transaction(async (tx: Tx) => {
      const row = await repo.attachSet(tx, purchase.id, setId);
      if (!row) throw notWaiting();
      await this.deps.pipeline.start(tx, row);
    });
    this.deps.started(userId);
    return this.one(userId, id);
  }

  /** The delivered images of a purchase as a streamed zip, and the name to save it as. */
  async download(userId: string, id: string): Promise<{ filename: string; body: Readable }> {
    const purchase = await this.own(userId, id);
    const images = await repo.deliveredImages(this.deps.db, userId, [purchase.id]);
    if (images.length === 0) {
      const ended = purchase.kind !== 'photo_shoot' || ENDED.includes(purchase.status);
      throw new AppError(
        'CONFLICT',
        ended ? 'This purchase has no images to download.' : 'Nothing has been delivered yet.',
      );
    }
    return {
      filename: zipFilename(purchase.productId, purchase.deliveredAt ?? purchase.updatedAt),
      body: purchaseZip(this.deps.storage, purchase.productId, images),
    };
  }
}
