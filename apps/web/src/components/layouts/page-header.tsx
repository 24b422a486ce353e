import type { ReactNode } from 'react';

export function PageHeader({
  eyebrow,
  title,
  description,
  icon,
}: {
  eyebrow?: ReactNode;
  title: ReactNode;
  description: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:gap-5">
      {icon && (
        <div className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-100 text-2xl text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
          {icon}
        </div>
      )}
      <div className="min-w-0">
        {eyebrow && (
          <p className="mb-1 text-xs font-semibold tracking-wider text-brand-600 uppercase dark:text-brand-400">
            {eyebrow}
          </p>
        )}
        <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{title}</h1>
        <p className="mt-2 max-w-2xl text-base text-pretty text-zinc-600 sm:text-lg dark:text-zinc-400">
          {description}
        </p>
      </div>
    </div>
  );
}
