/** Typed route table: every product route in one place. */
export const paths = {
  home: '/',
  generate: '/generate',
  examples: '/examples',
  studio: '/studio',
  gallery: '/gallery',
  credits: '/credits',
  referrals: '/referrals',
  training: '/training',
  models: '/models',
  onboarding: '/onboarding',
  products: '/products',
  myProducts: '/my-products',
  account: '/account',
  operatorVendors: '/operator/vendors',
  terms: '/terms',
  privacy: '/privacy',
  auth: '/auth',
} as const satisfies Record<string, `/${string}`>;

export type PathKey = keyof typeof paths;

/** Links shown in the header's main navigation, in order. */
export const primaryNav = [
  'generate',
  'studio',
  'gallery',
  'examples',
  'training',
  'models',
  'products',
] as const satisfies readonly PathKey[];
