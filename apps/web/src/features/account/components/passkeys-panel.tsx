import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { PasskeyError, useAddPasskey, useRemovePasskey } from '../api/passkeys';
import { useSecondFactors } from '../api/second-factors';

const inputClass =
  'w-full rounded-xl border border-zinc-300 bg-white px-3 py-2.5 text-sm outline-none focus-visible:border-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500/30 dark:border-zinc-700 dark:bg-zinc-950';

/**
 * The person's passkeys: add one (named; the browser's passkey dialog does the rest), see when each
 * was added and last used, remove one after a confirmation. The list comes with the second factors.
 */
export function PasskeysPanel({ email }: { email: string | null }) {
  const { t, i18n } = useTranslation();
  const factors = useSecondFactors();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const passkeys = factors.data?.passkeys ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ name: name.trim(), email }, { onSuccess: () => setName('') });
  };
  const addError = add.error
    ? t(`account.passkeys.errors.${add.error instanceof PasskeyError ? add.error.reason : 'FAILED'}`)
    : undefined;

  return (
    <section
      aria-labelledby="passkeys-heading"
      className="rounded-2xl border border-zinc-200 bg-white p-5 sm:p-6 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="passkeys-panel"
    >
      <h2 id="passkeys-heading" className="text-lg font-semibold">
        {t('account.passkeys.title')}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('account.passkeys.body')}</p>

      <form onSubmit={submit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
        <Field label={t('account.passkeys.nameLabel')} className="flex-1">
          {(control) => (
            <input
              {...control}
              value={name}
              maxLength={100}
              autoComplete="off"
              placeholder={t('account.passkeys.namePlaceholder')}
              onChange={(event) => setName(event.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? t('account.passkeys.adding') : t('account.passkeys.add')}
        </Button>
      </form>
      {addError && (
        <Alert tone="error" inline className="mt-3">
          {addError}
        </Alert>
      )}

      {factors.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : factors.isError ? (
        <Alert tone="error" inline className="mt-4">
          {t('account.passkeys.loadFailed')}
        </Alert>
      ) : passkeys.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-500 dark:text-zinc-400" data-testid="passkeys-empty">
          {t('account.passkeys.empty')}
        </p>
      ) : (
        <ul
          className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800"
          aria-label={t('account.passkeys.title')}
        >
          {passkeys.map((passkey) => (
            <li
              key={passkey.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
              data-testid="passkey-row"
            >
              <div className="min-w-0">
                <p className="truncate font-medium">{passkey.name}</p>
                <p className="text-sm text-zinc-600 dark:text-zinc-400">
                  {t('account.passkeys.added', { date: day.format(new Date(passkey.createdAt)) })}
                  {' · '}
                  {passkey.lastUsedAt
                    ? t('account.passkeys.lastUsed', { date: day.format(new Date(passkey.lastUsedAt)) })
                    : t('account.passkeys.neverUsed')}
                </p>
              </div>
              <Button
                look="secondary"
                type="button"
                onClick={() => {
                  remove.reset();
                  setRemoving({ id: passkey.id, name: passkey.name });
                }}
              >
                {t('account.passkeys.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={t('account.passkeys.remove')}
        body={t('account.passkeys.removeConfirm', { name: removing?.name ?? '' })}
        error={remove.error ? t('account.passkeys.errors.removeFailed') : null}
        keepLabel={t('account.cancel')}
        confirmLabel={t('account.passkeys.remove')}
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.id, { onSuccess: () => setRemoving(null) })}
        testId="remove-passkey"
      />
    </section>
  );
}
