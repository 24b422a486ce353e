import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TrainedModelView } from '@lumina/contracts';
import { useRenameTrainedModel } from '../api/my-models';

/**
 * A model's name that renames in place: the Rename button turns it into a field; Enter saves, Escape
 * (or leaving an unchanged field) puts the name back. The server's refusal shows under the field.
 */
export function ModelName({ model, headingId }: { model: TrainedModelView; headingId: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(model.name);
  const rename = useRenameTrainedModel();

  function save() {
    const name = draft.trim();
    if (name === model.name) return setEditing(false);
    rename.mutate({ id: model.id, name }, { onSuccess: () => setEditing(false) });
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      rename.reset();
      setDraft(model.name);
      setEditing(false);
    }
  }

  if (!editing)
    return (
      <div className="flex min-w-0 items-center gap-2">
        <h2 id={headingId} className="truncate font-semibold" data-testid="model-name">
          {model.name}
        </h2>
        <button
          type="button"
          onClick={() => {
            setDraft(model.name);
            setEditing(true);
          }}
          className="shrink-0 rounded-lg px-1.5 py-0.5 text-xs font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
          aria-label={t('training.models.renameLabel', { name: model.name })}
          data-testid="model-rename"
        >
          {t('training.models.rename')}
        </button>
      </div>
    );

  return (
    <div className="flex flex-col gap-1">
      <h2 id={headingId} className="sr-only">
        {model.name}
      </h2>
      <input
        autoFocus
        value={draft}
        maxLength={60}
        disabled={rename.isPending}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        aria-label={t('training.models.nameField')}
        aria-describedby={`${headingId}-rename-hint`}
        aria-invalid={rename.error ? true : undefined}
        data-testid="model-rename-input"
        className="w-full rounded-lg border border-zinc-300 bg-white px-2 py-1 text-sm font-semibold outline-none focus-visible:border-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500/30 dark:border-zinc-700 dark:bg-zinc-950"
      />
      <p id={`${headingId}-rename-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">
        {t('training.models.renameHint')}
      </p>
      {rename.error && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400" data-testid="model-rename-error">
          {rename.error.message}
        </p>
      )}
    </div>
  );
}
