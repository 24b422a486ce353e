import { paths } from '@/config/paths';

export const WIZARD_STEPS = ['about', 'photos', 'product', 'checkout'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export const isWizardStep = (value: unknown): value is WizardStep =>
  typeof value === 'string' && (WIZARD_STEPS as readonly string[]).includes(value);

/**
 * Where the wizard is kept between reloads: the step in the URL (`?step=`, so Back and a shared link
 * work) and in sessionStorage (a plain /onboarding after a reload resumes too), the photo set chosen in
 * sessionStorage. The answers themselves are the server's (GET /api/onboarding).
 */
export const STEP_STORAGE_KEY = 'lumina.onboarding.step';
export const SET_STORAGE_KEY = 'lumina.onboarding.set';

export function readStored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Private modes may refuse storage: the URL still holds the step.
  }
}

/**
 * Where to go after finishing or skipping: the app page the person first opened (`?next=`, set by
 * RequireOnboarded), or Generate. Only a path on this app, never onboarding itself or another site.
 */
export function nextPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return paths.generate;
  if (next === paths.onboarding || next.startsWith(`${paths.onboarding}?`)) return paths.generate;
  return next;
}
