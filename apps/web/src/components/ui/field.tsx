import { useId, type ReactNode } from 'react';

/** What a control needs to be wired to its label, hint and error. */
export interface FieldControl {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': boolean | undefined;
}

/**
 * A label, one control, an optional hint and an optional error, wired by ids: the control is labelled by
 * the label and described by the hint and the error. The control is rendered by `children` with the
 * wiring props to spread on it.
 */
export function Field({
  label,
  hint,
  error,
  id: givenId,
  className,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** The control's id when the caller needs it (e.g. for an `<output for>`); generated otherwise. */
  id?: string;
  className?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const generated = useId();
  const id = givenId ?? generated;
  const described =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-2 block text-sm font-semibold">
        {label}
      </label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A field's error line (for controls laid out by hand, such as a radio group). */
export function FieldError({ id, message }: { id?: string; message?: ReactNode }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm text-red-600 dark:text-red-400">
      {message}
    </p>
  );
}
