import type { ReactNode } from 'react';
import { Link } from 'react-router';

const variants = {
  primary:
    'bg-brand-600 text-white shadow-sm shadow-brand-600/20 hover:bg-brand-700 dark:bg-brand-500 dark:hover:bg-brand-400 dark:text-zinc-950',
  secondary:
    'border border-zinc-300 bg-white text-zinc-900 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800',
} as const;

export const buttonClass = (variant: keyof typeof variants = 'primary') =>
  `inline-flex items-center justify-center gap-2 rounded-xl px-4 py-2.5 text-sm font-semibold transition-colors ${variants[variant]}`;

export function ButtonLink({
  to,
  variant = 'primary',
  children,
}: {
  to: string;
  variant?: keyof typeof variants;
  children: ReactNode;
}) {
  return (
    <Link to={to} className={buttonClass(variant)}>
      {children}
    </Link>
  );
}
