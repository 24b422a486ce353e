import { z } from 'zod';
import { defineContract } from './contract.ts';
import { listChoices } from './tool-recipe.ts';
import { text } from './text.ts';
import { TrainingSetView, TrainingUploadForm, TrainingUploadResult } from './training.ts';

/**
 * Onboarding (SPEC.md §1, §3, §7; issue 13): after a first sign-in a person says who they are
 * (`use_case, country, phone, referral_source, gender`), may upload photos for the onboarding product,
 * and is then marked onboarded. Everything here is editable later on the account page.
 */

/** What a person mostly wants Lumina for. */
export const USE_CASES = [
  'professional_headshots',
  'social_media',
  'dating_profile',
  'marketing',
  'art_and_design',
  'personal_fun',
  'other',
] as const;
export type UseCase = (typeof USE_CASES)[number];

/** How they heard of Lumina: one of these, or their own words (at most REFERRAL_SOURCE_MAX characters). */
export const REFERRAL_SOURCES = [
  'search_engine',
  'friend_or_colleague',
  'social_media',
  'youtube',
  'podcast',
  'news_or_blog',
  'advertisement',
] as const;
export const REFERRAL_SOURCE_MAX = 100;

export const GENDERS = ['female', 'male', 'non_binary', 'prefer_not_to_say'] as const;
export type Gender = (typeof GENDERS)[number];

/**
 * ISO 3166-1 alpha-2 codes (the 249 assigned ones, plus XK for Kosovo, a user-assigned code in wide
 * use). Names come from the browser's Intl.DisplayNames, in the reader's language.
 */
export const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO ' +
  'FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE ' +
  'JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO ' +
  'MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW ' +
  'PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM ' +
  'TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
).split(' ');

/** A phone number in E.164: `+`, a country code and the number, 7 to 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

const countrySet = new Set(COUNTRY_CODES);

export const OnboardingInput = z.object({
  use_case: z.enum(USE_CASES, { error: `use_case must be ${listChoices(USE_CASES)}` }),
  country: text()
    .trim()
    .toUpperCase()
    .refine((c) => countrySet.has(c), 'Choose a country (a two-letter ISO 3166-1 code such as GB or US)'),
  phone: text()
    .trim()
    .transform((p) => p.replace(/[\s().-]/g, ''))
    .refine(
      (p) => p === '' || E164.test(p),
      'Give the phone number in international form, e.g. +44 20 7946 0958',
    )
    .optional()
    .describe('Optional, E.164; empty means none'),
  referral_source: text()
    .trim()
    .min(1, 'Say how you heard of us, or choose one of the answers')
    .max(REFERRAL_SOURCE_MAX, `At most ${REFERRAL_SOURCE_MAX} characters`)
    .describe(`One of ${REFERRAL_SOURCES.join(', ')}, or your own words`),
  gender: z
    .enum(GENDERS, { error: `gender must be ${listChoices(GENDERS)}` })
    .optional()
    .describe('Not given when absent'),
});
export type OnboardingInput = z.infer<typeof OnboardingInput>;

export const OnboardingView = z
  .object({
    use_case: z.enum(USE_CASES).nullable(),
    country: z.string().nullable(),
    phone: z.string().nullable(),
    referral_source: z.string().nullable(),
    gender: z.enum(GENDERS).nullable(),
    onboarded: z
      .boolean()
      .describe('Completed (or skipped) onboarding: the app stops sending them to /onboarding'),
    completed_at: z.iso.datetime().nullable(),
    skipped_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Onboarding' });
export type OnboardingView = z.infer<typeof OnboardingView>;

export const onboardingContract = defineContract({
  method: 'GET',
  path: '/api/onboarding',
  summary: "The caller's onboarding answers and whether they are onboarded",
  tags: ['onboarding'],
  response: OnboardingView,
});

export const submitOnboardingContract = defineContract({
  method: 'POST',
  path: '/api/onboarding',
  summary: 'Save the onboarding answers (first time or edited later); marks the caller onboarded',
  tags: ['onboarding'],
  body: OnboardingInput,
  response: OnboardingView,
});

export const skipOnboardingContract = defineContract({
  method: 'POST',
  path: '/api/onboarding/skip',
  summary: 'Skip onboarding for now: the app stops sending the caller to /onboarding',
  tags: ['onboarding'],
  response: OnboardingView,
});

export const uploadOnboardingImagesContract = defineContract({
  method: 'POST',
  path: '/api/onboarding/upload_images',
  summary:
    'Photos for the onboarding product (multipart: files, or one zip), checked like training photos; stored as a pending image set',
  tags: ['onboarding'],
  form: TrainingUploadForm,
  response: TrainingUploadResult,
  status: 201,
});

export const pendingImageSetsContract = defineContract({
  method: 'GET',
  path: '/api/onboarding/pending_image_sets',
  summary:
    "The caller's photo sets waiting for a purchase or a training (not yet used by either), newest first",
  tags: ['onboarding'],
  response: z.object({ sets: z.array(TrainingSetView) }).meta({ id: 'PendingImageSets' }),
});
