import { z } from 'zod';
import { defineContract } from './contract.ts';
import { CheckoutSessionView } from './payments.ts';
import { safeUrl, text } from './text.ts';

/**
 * Products (SPEC.md §3, §7; issue 13): what a person buys, defined by the operator as data
 * (PRODUCTS_JSON / PRODUCTS_FILE). A photo shoot trains a model on the buyer's photos and then makes
 * a set of images with it; a credit package adds credits. The first product listed is the onboarding
 * product.
 */

export const PRODUCT_KINDS = ['photo_shoot', 'credits'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

/** The most images one photo shoot may deliver (a product definition above this is refused at start-up). */
export const PHOTO_SHOOT_MAX_IMAGES = 100;

export const ProductPrice = z
  .object({
    amount_cents: z.int().describe('Price in minor units of `currency`'),
    currency: z.string().describe('ISO 4217, lower case'),
  })
  .meta({ id: 'ProductPrice' });
export type ProductPrice = z.infer<typeof ProductPrice>;

export const ProductView = z
  .object({
    id: z.string(),
    kind: z.enum(PRODUCT_KINDS),
    name: z.string(),
    description: z.string(),
    cover_urls: z.array(z.string()).describe('Sample images (the first is the cover)'),
    price: ProductPrice.nullable().describe(
      'Money price (Stripe or the development checkout); null when sold for credits only',
    ),
    price_credits: z.int().nullable().describe('Price in credits; null when sold for money only'),
    badge: z.string().nullable(),
    /** A credit package: the credits it adds. */
    credits: z.int().nullable(),
    /** A photo shoot: how many images it delivers, and what it trains on. */
    images: z.int().nullable(),
    min_photos: z.int().nullable().describe('Photos the buyer provides (photo shoots)'),
    max_photos: z.int().nullable(),
    review: z
      .object({ average: z.number(), count: z.int() })
      .describe('Ratings of this product by people who bought it (count 0: none yet)'),
  })
  .meta({ id: 'Product' });
export type ProductView = z.infer<typeof ProductView>;

export const productsContract = defineContract({
  method: 'GET',
  path: '/api/products',
  summary: 'Products on sale, the onboarding product first, each with its price and review summary',
  tags: ['products'],
  auth: false,
  response: z.array(ProductView),
});

/** Where a purchase is on its way to delivery. `pending_payment` purchases are not listed. */
export const PurchaseStatus = z
  .enum(['waiting_for_photos', 'training', 'generating', 'ready', 'failed', 'refunded'])
  .meta({ id: 'PurchaseStatus' });
export type PurchaseStatus = z.infer<typeof PurchaseStatus>;

export const PurchaseImage = z
  .object({ id: z.uuid(), url: z.string(), thumbnail_url: z.string() })
  .meta({ id: 'PurchaseImage' });

export const PurchaseView = z
  .object({
    id: z.uuid(),
    product_id: z.string(),
    product_name: z.string(),
    kind: z.enum(PRODUCT_KINDS),
    status: PurchaseStatus,
    paid_with: z.enum(['money', 'credits']),
    /** What was charged: money (minor units) or credits. */
    amount_cents: z.int().nullable(),
    currency: z.string().nullable(),
    credits_spent: z.int().nullable(),
    payment_id: z.uuid().nullable().describe('The payment (money purchases): what a review names'),
    set_id: z.uuid().nullable().describe('The photos it trains on (photo shoots)'),
    model_id: z.uuid().nullable().describe('The model trained for it, once training started'),
    progress: z
      .object({
        stage: z.enum(['photos', 'training', 'generating', 'done']),
        percent: z.int().nullable().describe('Of the current stage, when known'),
        images_done: z.int(),
        images_total: z.int(),
      })
      .describe('Live progress'),
    error: z.string().nullable().describe('Why it failed and what was refunded, in words for people'),
    images: z.array(PurchaseImage).describe('Delivered images (a ready photo shoot)'),
    credits_added: z.int().nullable().describe('A credit package: the credits it added'),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Purchase' });
export type PurchaseView = z.infer<typeof PurchaseView>;

export const myProductsContract = defineContract({
  method: 'GET',
  path: '/api/myproducts',
  summary: 'What the caller bought, newest first, each with its state, progress and delivered images',
  tags: ['products'],
  response: z.array(PurchaseView),
});

const purchaseId = z.object({ id: z.uuid('Not a purchase id') });

export const myProductContract = defineContract({
  method: 'GET',
  path: '/api/myproducts/{id}',
  summary: 'One of the caller’s purchases',
  tags: ['products'],
  params: purchaseId,
  response: PurchaseView,
});

export const BuyProductRequest = z
  .object({
    pay_with: z
      .enum(['money', 'credits'], { error: 'pay_with must be "money" or "credits"' })
      .default('money'),
    set_id: z
      .uuid('Not a photo set id')
      .optional()
      .describe(
        'A photo shoot: the photos to train on (from /api/onboarding/upload_images); may be added later',
      ),
    expected_price: z
      .object({
        amount_cents: z.int('amount_cents is a whole number of minor units'),
        currency: text().regex(/^[a-zA-Z]{3}$/, 'currency is an ISO 4217 code such as usd'),
      })
      .optional()
      .describe(
        'The money price the buyer was shown; a different server price is refused (409) so it can be shown again',
      ),
    expected_credits: z.int().optional().describe('The credit price the buyer was shown (same rule)'),
    success_url: safeUrl()
      .optional()
      .describe(
        'Money: where the checkout returns when paid (on this app; {CHECKOUT_SESSION_ID} is filled in). Default /my-products?session_id=…',
      ),
    cancel_url: safeUrl()
      .optional()
      .describe('Money: where a cancelled checkout returns (on this app). Default /products'),
  })
  .meta({ id: 'BuyProductRequest' });
export type BuyProductRequest = z.infer<typeof BuyProductRequest>;

export const BuyProductResult = z
  .object({
    purchase: PurchaseView.nullable().describe('Credits: the purchase, already started'),
    checkout: CheckoutSessionView.nullable().describe('Money: where to send the browser to pay'),
    balance: z.int().nullable().describe('Credits: the balance after the charge'),
  })
  .meta({ id: 'BuyProductResult' });

export const buyProductContract = defineContract({
  method: 'POST',
  path: '/api/products/{id}/buy',
  summary: 'Buy a product: with money (a checkout to pay) or with credits (charged now, the purchase starts)',
  tags: ['products'],
  params: z.object({ id: text().min(1).max(64) }),
  body: BuyProductRequest,
  response: BuyProductResult,
  status: 201,
});

export const attachPhotosContract = defineContract({
  method: 'POST',
  path: '/api/myproducts/{id}/photos',
  summary: 'Give a photo shoot waiting for photos its photo set; training starts',
  tags: ['products'],
  params: purchaseId,
  body: z.object({ set_id: z.uuid('Not a photo set id') }),
  response: PurchaseView,
});

export const downloadPurchaseContract = defineContract({
  method: 'GET',
  path: '/api/myproducts/{id}/download',
  summary: 'All delivered images of a purchase as one zip (application/zip)',
  tags: ['products'],
  params: purchaseId,
  response: z.any().describe('application/zip'),
});
