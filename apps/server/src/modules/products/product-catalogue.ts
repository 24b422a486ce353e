import { readFileSync } from 'node:fs';
import { PHOTO_SHOOT_MAX_IMAGES, TRAINING_SUBJECTS } from '@lumina/contracts';
import { z } from 'zod';

/**
 * The products on sale (issue 13), as the operator defines them: PRODUCTS_JSON or PRODUCTS_FILE, or
 * the built-in set below. Checked once at start-up; a bad definition stops the server with a message
 * naming the setting. The first product is the onboarding product.
 */

const Id = z.string().regex(/^[a-z0-9_-]{1,64}$/, 'product ids are 1-64 lowercase letters, digits, _ and -');
const Money = z.object({
  cents: z.int().min(50, 'price.cents is whole minor units (cents), at least 50'),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/, 'price.currency is a lower-case ISO 4217 code')
    .default('usd'),
});

const Common = {
  id: Id,
  name: z.string().min(1).max(100),
  description: z.string().max(1000).default(''),
  /** Sample images: absolute URLs, or paths on the web app (`/products/headshots-1.webp`). */
  covers: z.array(z.string().min(1).max(500)).max(12).default([]),
  stripePriceId: z.string().min(1).optional(),
  badge: z.string().min(1).max(40).optional(),
};

/** One prompt of a photo shoot and how many images it makes; `{trigger}` is replaced by the model's trigger word. */
const ShootPrompt = z.object({
  prompt: z.string().min(1).max(2000),
  count: z.int().min(1).max(PHOTO_SHOOT_MAX_IMAGES),
  aspectRatio: z
    .string()
    .regex(/^\d{1,2}:\d{1,2}$/, 'aspectRatio is like 3:4')
    .default('1:1'),
  negativePrompt: z.string().max(2000).optional(),
});

const PhotoShoot = z.object({
  ...Common,
  kind: z.literal('photo_shoot'),
  price: Money.optional(),
  priceCredits: z.int().min(1).optional(),
  shoot: z.object({
    subject: z.enum(TRAINING_SUBJECTS).default('person'),
    /** A `train` model id from the catalogue; the TRAINER default when absent. */
    trainer: z.string().min(1).max(100).optional(),
    steps: z.int().min(1).optional(),
    prompts: z.array(ShootPrompt).min(1).max(PHOTO_SHOOT_MAX_IMAGES),
  }),
});

const CreditPack = z.object({
  ...Common,
  kind: z.literal('credits'),
  /** Credit packages are bought with money only. */
  price: Money,
  credits: z.int().min(1),
});

const ProductDef = z
  .discriminatedUnion('kind', [PhotoShoot, CreditPack])
  .refine((p) => p.kind === 'credits' || p.price || p.priceCredits, {
    message: 'a photo shoot needs a price (money), a priceCredits, or both',
  })
  .refine(
    (p) => p.kind === 'credits' || p.shoot.prompts.reduce((n, s) => n + s.count, 0) <= PHOTO_SHOOT_MAX_IMAGES,
    { message: `a photo shoot delivers at most ${PHOTO_SHOOT_MAX_IMAGES} images in all` },
  );

const ProductList = z
  .array(ProductDef)
  .min(1, 'at least one product')
  .refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'product ids must be unique');

export type Product = z.infer<typeof ProductDef>;
export type PhotoShootProduct = Extract<Product, { kind: 'photo_shoot' }>;
export type CreditPackProduct = Extract<Product, { kind: 'credits' }>;

/** Images a photo shoot delivers in all. */
export const shootImages = (p: PhotoShootProduct) => p.shoot.prompts.reduce((n, s) => n + s.count, 0);

/** The built-in photo shoots (the first is the onboarding product); credit packages follow them. */
export const BUILT_IN_SHOOTS: readonly PhotoShootProduct[] = [
  {
    id: 'headshots',
    kind: 'photo_shoot',
    name: 'Professional headshots',
    description:
      'Upload 5 to 30 photos of yourself. We train a model of your likeness and deliver 40 studio-quality headshots for your profile, CV or team page.',
    covers: ['/products/headshots-1.webp', '/products/headshots-2.webp', '/products/headshots-3.webp'],
    price: { cents: 2900, currency: 'usd' },
    priceCredits: 600,
    badge: 'most popular',
    shoot: {
      subject: 'person',
      prompts: [
        {
          prompt:
            'professional corporate headshot of {trigger}, studio lighting, neutral grey backdrop, sharp focus',
          count: 10,
          aspectRatio: '3:4',
        },
        {
          prompt:
            'business portrait of {trigger} in a modern office, soft window light, shallow depth of field',
          count: 10,
          aspectRatio: '3:4',
        },
        {
          prompt: 'friendly outdoor headshot of {trigger}, golden hour, blurred city background',
          count: 10,
          aspectRatio: '3:4',
        },
        {
          prompt: 'black and white editorial portrait of {trigger}, dramatic side light',
          count: 10,
          aspectRatio: '1:1',
        },
      ],
    },
  },
  {
    id: 'artistic-portraits',
    kind: 'photo_shoot',
    name: 'Artistic portraits',
    description:
      'Twenty portraits of you in painterly, cinematic and illustrated styles, from your own photos.',
    covers: ['/products/artistic-1.webp', '/products/artistic-2.webp', '/products/artistic-3.webp'],
    price: { cents: 1900, currency: 'usd' },
    priceCredits: 400,
    shoot: {
      subject: 'person',
      prompts: [
        {
          prompt: 'oil painting portrait of {trigger}, rich colours, visible brush strokes',
          count: 5,
          aspectRatio: '3:4',
        },
        {
          prompt: 'cinematic film still of {trigger}, teal and orange grade, anamorphic bokeh',
          count: 5,
          aspectRatio: '16:9',
        },
        {
          prompt: 'watercolour illustration of {trigger}, soft pastel palette',
          count: 5,
          aspectRatio: '1:1',
        },
        { prompt: 'neon-lit night portrait of {trigger}, rain reflections', count: 5, aspectRatio: '3:4' },
      ],
    },
  },
];

export class ProductsConfigError extends Error {}

/**
 * The products on sale. With PRODUCTS_JSON / PRODUCTS_FILE the operator's list is all of them (credit
 * packages included, as kind "credits"); otherwise the built-in shoots then the credit packages
 * (CREDIT_PACKAGES_JSON or the built-in three), so a review's product_id always names a product.
 */
export function loadProducts(
  source: { json?: string; file?: string },
  creditPackages: readonly CreditPackProduct[],
): Product[] {
  if (source.json && source.file)
    throw new ProductsConfigError('set PRODUCTS_JSON or PRODUCTS_FILE, not both');
  let text = source.json;
  if (source.file) {
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (err) {
      throw new ProductsConfigError(
        `cannot read ${source.file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      );
    }
  }
  if (!text) return [...BUILT_IN_SHOOTS, ...creditPackages];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ProductsConfigError(`is not valid JSON (${(err as Error).message})`);
  }
  const parsed = ProductList.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new ProductsConfigError(`is not a valid product list${where}: ${issue.message}`);
  }
  return parsed.data;
}

/** The start-up check's words for a bad product list, or undefined when it is good. */
export function productsProblem(source: { json?: string; file?: string }): string | undefined {
  try {
    loadProducts(source, []);
    return undefined;
  } catch (err) {
    if (err instanceof ProductsConfigError) return err.message;
    throw err;
  }
}
