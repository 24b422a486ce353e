import type { ButtonHTMLAttributes } from 'react';
import { buttonClass } from './button-link';

const looks = {
  primary: buttonClass('primary'),
  secondary: buttonClass('secondary'),
  /** The one action a form exists for (Generate, Start a tool): large, with the brand gradient. */
  cta: 'inline-flex items-center justify-center gap-2 rounded-2xl bg-gradient-to-r from-brand-600 to-fuchsia-600 px-5 py-3.5 text-base font-semibold text-white shadow-lg shadow-brand-600/25 transition hover:brightness-110 focus-visible:outline-2 disabled:cursor-not-allowed disabled:from-zinc-400 disabled:to-zinc-400 disabled:shadow-none dark:disabled:from-zinc-700 dark:disabled:to-zinc-700 dark:disabled:text-zinc-400',
  /** A quiet bordered action beside content (Cancel, Load more). */
  outline:
    'inline-flex items-center gap-1.5 rounded-xl border border-zinc-300 px-3 py-1.5 text-sm font-semibold hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800',
  /** The action that destroys something, in a confirmation (Delete). */
  danger:
    'inline-flex items-center gap-2 rounded-xl bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60',
  /** A round icon-only action; give it an aria-label. */
  icon: 'inline-flex size-8 shrink-0 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:opacity-50 dark:hover:bg-zinc-800 dark:hover:text-white',
} as const;

export type ButtonLook = keyof typeof looks;

/** The app's button: `type="button"` unless told otherwise, one of the shared looks, extra classes after it. */
export function Button({
  look = 'primary',
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { look?: ButtonLook }) {
  return (
    <button type={type} className={className ? `${looks[look]} ${className}` : looks[look]} {...props} />
  );
}
