import { useTranslation } from 'react-i18next';
import type { CreditHistoryEntry } from '@lumina/contracts';
import { useCreditHistory } from '../api/get-credit-history';
import { formatCreditDelta } from '@/lib/money';
import { Button } from '@/components/ui/button';
import { CreditsPanel } from './credits-panel';

const cell = 'px-3 py-2.5 whitespace-nowrap';

/** The ledger: every grant and spend with the running balance, newest first, a page at a time. */
export function CreditHistory() {
  const { t, i18n } = useTranslation();
  const history = useCreditHistory();
  const locale = i18n.language;
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const number = new Intl.NumberFormat(locale);
  const entries = history.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <CreditsPanel
      name="history"
      title={t('credits.history.title')}
      query={history}
      failed={history.isError && entries.length === 0}
      items={entries}
      emptyText={t('credits.history.empty')}
      footer={
        history.hasNextPage && (
          <Button
            look="secondary"
            type="button"
            onClick={() => void history.fetchNextPage()}
            disabled={history.isFetchingNextPage}
            className="self-center disabled:opacity-60"
          >
            {history.isFetchingNextPage ? t('credits.history.loadingMore') : t('credits.history.loadMore')}
          </Button>
        )
      }
    >
      {(rows) => (
        <div className="overflow-x-auto rounded-3xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
          <table className="w-full text-left text-sm" data-testid="credit-history">
            <thead className="border-b border-zinc-200 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
              <tr>
                <th scope="col" className={`${cell} font-medium`}>
                  {t('credits.history.time')}
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {t('credits.history.reason')}
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {t('credits.history.what')}
                </th>
                <th scope="col" className={`${cell} text-right font-medium`}>
                  {t('credits.history.amount')}
                </th>
                <th scope="col" className={`${cell} text-right font-medium`}>
                  {t('credits.history.balanceAfter')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {rows.map((entry) => (
                <tr key={entry.id} data-testid="history-row" data-reason={entry.reason}>
                  <td className={`${cell} text-zinc-600 dark:text-zinc-400`}>
                    <time dateTime={entry.created_at}>{time.format(new Date(entry.created_at))}</time>
                  </td>
                  <td className={cell}>
                    {t(`credits.history.reasons.${entry.reason}`, { defaultValue: entry.reason })}
                  </td>
                  <td className="max-w-80 px-3 py-2.5 text-xs text-zinc-600 dark:text-zinc-400">
                    <EntryDescription entry={entry} />
                  </td>
                  <td
                    className={`${cell} text-right font-semibold tabular-nums ${
                      entry.amount > 0
                        ? 'text-emerald-700 dark:text-emerald-300'
                        : 'text-zinc-900 dark:text-zinc-100'
                    }`}
                  >
                    {formatCreditDelta(entry.amount, locale)}
                  </td>
                  <td className={`${cell} text-right tabular-nums`}>{number.format(entry.balance_after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </CreditsPanel>
  );
}

/** What an entry was for, as a person recognises it: the tool, model, prompt's start and result, or the package. */
function EntryDescription({ entry }: { entry: CreditHistoryEntry }) {
  const { t } = useTranslation();
  if (entry.job) {
    const tool = t(`credits.history.tools.${entry.job.kind}`, { defaultValue: entry.job.kind });
    const result = entry.job.result;
    return (
      <div className="flex items-center gap-2.5" data-testid="history-job">
        {result && (
          <img
            src={result.thumbnail_url}
            alt=""
            width={32}
            height={32}
            loading="lazy"
            className="size-8 shrink-0 rounded-md bg-zinc-100 object-cover dark:bg-zinc-800"
          />
        )}
        <div className="min-w-0">
          <p className="truncate font-medium text-zinc-800 dark:text-zinc-200">
            {t('credits.history.jobLine', { tool, model: entry.job.model_name })}
          </p>
          {entry.job.prompt_excerpt && (
            <p className="truncate" title={entry.job.prompt_excerpt}>
              “{entry.job.prompt_excerpt}”
            </p>
          )}
          {result && (
            <a
              href={result.url}
              target="_blank"
              rel="noreferrer"
              aria-label={t('credits.history.viewResultLabel', { tool })}
              className="font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
            >
              {t('credits.history.viewResult')}
            </a>
          )}
        </div>
      </div>
    );
  }
  if (entry.payment) {
    return (
      <span className="font-medium text-zinc-800 dark:text-zinc-200">
        {t('credits.history.package', { name: entry.payment.package_name })}
      </span>
    );
  }
  return <span>{t('credits.history.noReference')}</span>;
}
