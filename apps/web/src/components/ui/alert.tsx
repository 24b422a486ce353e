import type { ReactNode } from 'react';

const tones = {
  info: 'bg-brand-50 text-brand-900 ring-brand-200 dark:bg-brand-500/10 dark:text-brand-100 dark:ring-brand-500/30',
  success:
    'bg-emerald-50 text-emerald-900 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-100 dark:ring-emerald-500/30',
  warning:
    'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-100 dark:ring-amber-500/30',
  error: 'bg-red-50 text-red-900 ring-red-200 dark:bg-red-950/40 dark:text-red-100 dark:ring-red-900/60',
} as const;

export type AlertTone = keyof typeof tones;

/** The same tones as a line of coloured text, for a short message beside the thing it is about. */
const textTones = {
  info: 'text-zinc-600 dark:text-zinc-400',
  success: 'text-emerald-700 dark:text-emerald-300',
  warning: 'text-amber-700 dark:text-amber-300',
  error: 'text-red-600 dark:text-red-400',
} as const;

/**
 * A message, boxed or (`inline`) a line of text. An error interrupts (role="alert"); the others are
 * announced politely (role="status"), or not at all with `live={false}` for a note that is simply part
 * of the page.
 */
export function Alert({
  tone,
  live = true,
  inline = false,
  size = 'sm',
  icon,
  className,
  testId,
  children,
}: {
  tone: AlertTone;
  live?: boolean;
  inline?: boolean;
  /** Inline text size. */
  size?: 'sm' | 'xs';
  icon?: ReactNode;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const role = !live ? undefined : tone === 'error' ? 'alert' : 'status';
  if (inline)
    return (
      <p
        role={role}
        data-testid={testId}
        className={[className, size === 'xs' ? 'text-xs' : 'text-sm', textTones[tone]]
          .filter(Boolean)
          .join(' ')}
      >
        {children}
      </p>
    );
  const box = `rounded-2xl px-4 py-3 text-sm ring-1 ring-inset ${tones[tone]}`;
  const layout = icon ? 'flex items-start gap-2' : '';
  return (
    <div role={role} data-testid={testId} className={[layout, box, className].filter(Boolean).join(' ')}>
      {icon}
      {icon ? <span>{children}</span> : children}
    </div>
  );
}
