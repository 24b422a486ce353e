import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { WandIcon } from '@/components/ui/icons';
import { useUser } from '@/features/auth/api/get-user';
import { useCreditBalance, useRefreshCreditBalance } from '@/features/credits/api/get-credit-balance';
import { useProgress } from '@/features/generate/api/get-progress';
import { progressQueryKey } from '@/lib/jobs/job-cache';
import { useJobTransitions } from '@/features/generate/hooks/use-job-transitions';
import { useProgressSync } from '@/features/generate/hooks/use-progress-sync';
import { StudioView } from '@/features/studio/components/studio-view';

/**
 * The Studio page: the image tools (studio), with the live job feed (generate's progress stream, shared by
 * every kind of job) and the balance (credits) composed in.
 */
export default function StudioRoute() {
  const { t } = useTranslation();
  const title = t('pages.studio.title');
  useDocumentTitle(title);
  const queryClient = useQueryClient();
  const balance = useCreditBalance();
  const refreshBalance = useRefreshCreditBalance();
  const { profile } = useUser();
  const stream = useProgressSync();
  const progress = useProgress({ live: stream === 'live' });
  // A failed or cancelled tool job was refunded: the header balance follows.
  useJobTransitions(progress.data?.jobs, { onRefund: () => refreshBalance() });
  const onJobStarted = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: progressQueryKey }),
    [queryClient],
  );
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<WandIcon />} title={title} description={t('pages.studio.description')} />
      <StudioView
        balance={balance.data?.balance}
        jobs={progress.data?.jobs}
        onCreditsChanged={refreshBalance}
        onJobStarted={onJobStarted}
        isOperator={profile.isOperator}
      />
    </div>
  );
}
