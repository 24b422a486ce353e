import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { REFERRAL_CODE, type ReferralCodeView } from '@lumina/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { TrashIcon } from '@/components/ui/icons';
import { useCreateReferralCode, useDeleteReferralCode, useToggleReferralCode } from '../api/referral-codes';
import { inputClass, panelClass } from './panel';

/** A date input's value (a local day) as the end of that day, so a code works through the day chosen. */
export function endOfDay(day: string): string | null {
  if (!day) return null;
  const date = new Date(`${day}T23:59:59.999`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function CreateCodeForm() {
  const { t } = useTranslation();
  const create = useCreateReferralCode();
  const [code, setCode] = useState('');
  const [expiry, setExpiry] = useState('');
  const [invalid, setInvalid] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (trimmed && !REFERRAL_CODE.test(trimmed)) return setInvalid(true);
    setInvalid(false);
    create.mutate(
      { code: trimmed, expiresAt: endOfDay(expiry) },
      {
        onSuccess: () => {
          setCode('');
          setExpiry('');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Field
          label={t('referrals.codes.newCode')}
          hint={t('referrals.codes.newCodeHint')}
          error={invalid ? t('referrals.codes.newCodeInvalid') : undefined}
          className="flex-1"
        >
          {(control) => (
            <input
              {...control}
              value={code}
              maxLength={32}
              autoComplete="off"
              onChange={(event) => setCode(event.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Field label={t('referrals.codes.newExpiry')} className="sm:w-48">
          {(control) => (
            <input
              {...control}
              type="date"
              value={expiry}
              onChange={(event) => setExpiry(event.target.value)}
              className={inputClass}
            />
          )}
        </Field>
        <Button type="submit" disabled={create.isPending} className="sm:mt-7">
          {t('referrals.codes.create')}
        </Button>
      </div>
      <div className="sr-only" aria-live="polite">
        {create.isSuccess && t('referrals.codes.created', { code: create.data.code })}
      </div>
      {create.error && <Alert tone="error">{create.error.message}</Alert>}
    </form>
  );
}

function statusOf(code: ReferralCodeView): 'expired' | 'active' | 'off' {
  if (code.expired) return 'expired';
  return code.active ? 'active' : 'off';
}

/** The caller's codes: make one, turn one off or on, delete one after a confirmation. */
export function ReferralCodes({ codes }: { codes: ReferralCodeView[] }) {
  const { t, i18n } = useTranslation();
  const toggle = useToggleReferralCode();
  const remove = useDeleteReferralCode();
  const [deleting, setDeleting] = useState<string | null>(null);
  const number = new Intl.NumberFormat(i18n.language);
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });

  return (
    <section aria-labelledby="referral-codes-title" className={`${panelClass} flex flex-col gap-5`}>
      <h2 id="referral-codes-title" className="text-lg font-semibold">
        {t('referrals.codes.title')}
      </h2>
      <CreateCodeForm />
      {toggle.error && <Alert tone="error">{toggle.error.message}</Alert>}
      <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
        {codes.map((code) => (
          <li
            key={code.code}
            data-testid="referral-code"
            data-code={code.code}
            className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3 text-sm"
          >
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-mono font-semibold break-all">{code.code}</span>
                {code.is_default && (
                  <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800 dark:bg-brand-500/15 dark:text-brand-200">
                    {t('referrals.codes.default')}
                  </span>
                )}
                <span className="text-xs font-semibold text-zinc-600 dark:text-zinc-400">
                  {t(`referrals.codes.${statusOf(code)}`)}
                </span>
              </p>
              <p className="mt-0.5 text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
                {t('referrals.codes.numbers', {
                  visits: number.format(code.visits),
                  signups: number.format(code.signups),
                  completed: number.format(code.completed),
                })}
                <span aria-hidden="true"> · </span>
                {code.expires_at ? (
                  <time dateTime={code.expires_at}>
                    {t('referrals.codes.expiresOn', { date: day.format(new Date(code.expires_at)) })}
                  </time>
                ) : (
                  t('referrals.codes.never')
                )}
              </p>
            </div>
            <div className="flex items-center gap-1">
              <Button
                look="outline"
                disabled={toggle.isPending}
                aria-label={t(code.active ? 'referrals.codes.turnOff' : 'referrals.codes.turnOn', {
                  code: code.code,
                })}
                onClick={() => toggle.mutate(code.code)}
              >
                {t(code.active ? 'referrals.codes.disable' : 'referrals.codes.enable')}
              </Button>
              <Button
                look="icon"
                aria-label={t('referrals.codes.delete', { code: code.code })}
                onClick={() => {
                  remove.reset();
                  setDeleting(code.code);
                }}
              >
                <TrashIcon />
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('referrals.codes.deleteTitle', { code: deleting ?? '' })}
        body={t('referrals.codes.deleteBody')}
        error={remove.error?.message}
        keepLabel={t('referrals.codes.keep')}
        confirmLabel={t('referrals.codes.confirmDelete')}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
        testId="delete-referral-code"
      />
    </section>
  );
}
