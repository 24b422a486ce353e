export function Spinner({ className = '' }: { className?: string }) {
  return (
    <span
      className={`inline-block size-6 animate-spin rounded-full border-2 border-zinc-300 border-t-brand-600 dark:border-zinc-700 dark:border-t-brand-400 ${className}`}
    />
  );
}

/** Shown before translations load, so it carries no text. */
export function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center" aria-busy="true">
      <Spinner />
    </div>
  );
}
