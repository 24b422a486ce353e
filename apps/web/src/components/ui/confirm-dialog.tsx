import { useId, type ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';
import { Modal } from './modal';

/**
 * "Are you sure?" before something that cannot be undone: a title, what will happen, the error if it
 * failed, and two buttons, the safe one focused first.
 */
export function ConfirmDialog({
  open,
  onClose,
  title,
  body,
  error,
  keepLabel,
  confirmLabel,
  pending,
  onConfirm,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  body: ReactNode;
  error?: string | null;
  keepLabel: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
  /** Names the error (`<testId>-error`) and confirm button (`<testId>-confirm`) for tests. */
  testId: string;
}) {
  const titleId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={titleId} className="max-w-md p-6">
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{body}</p>
      {error && (
        <Alert tone="error" className="mt-3" testId={`${testId}-error`}>
          {error}
        </Alert>
      )}
      <div className="mt-5 flex justify-end gap-2">
        <Button look="secondary" onClick={onClose} data-autofocus>
          {keepLabel}
        </Button>
        <Button look="danger" disabled={pending} onClick={onConfirm} data-testid={`${testId}-confirm`}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
