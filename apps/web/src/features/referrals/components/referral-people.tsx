import { useTranslation } from 'react-i18next';
import type { ReferralView } from '@lumina/contracts';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useReferrals } from '../api/list-referrals';
import { panelClass } from './panel';

/** The people who joined through the caller: masked email, status in words, reward and date. */
export function ReferralPeople() {
  const { t, i18n } = useTranslation();
  const people = useReferrals();
  const number = new Intl.NumberFormat(i18n.language);
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const statusText = (person: ReferralView) =>
    person.status === 'not_eligible' && person.not_eligible_reason
      ? t(`referrals.people.notEligible.${person.not_eligible_reason}`)
      : t(`referrals.people.statuses.${person.status}`, {
          date: person.settles_at ? day.format(new Date(person.settles_at)) : '',
        });
  return (
    <section aria-labelledby="referral-people-title" className={`${panelClass} flex flex-col gap-4`}>
      <h2 id="referral-people-title" className="text-lg font-semibold">
        {t('referrals.people.title')}
      </h2>
      {people.isPending ? (
        <LoadingBlock className="py-8" />
      ) : people.isError ? (
        <QueryError error={people.error} onRetry={() => void people.refetch()} compact />
      ) : people.data.referrals.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="referral-people-empty">
          {t('referrals.people.empty')}
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {people.data.referrals.map((person) => (
            <li
              key={person.id}
              data-testid="referral-person"
              data-status={person.status}
              className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3 text-sm"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{person.email}</p>
                <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="referral-person-status">
                  {statusText(person)}
                </p>
              </div>
              <span className="font-semibold tabular-nums">
                {t('referrals.people.credits', { formatted: number.format(person.reward_credits) })}
              </span>
              <time dateTime={person.joined_at} className="text-xs text-zinc-600 dark:text-zinc-400">
                {day.format(new Date(person.joined_at))}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
