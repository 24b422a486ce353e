import { useCallback, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ImageView, JobView, Tool } from '@lumina/contracts';
import { paths } from '@/config/paths';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { SparklesIcon } from '@/components/ui/icons';
import { useUser } from '@/features/auth/api/get-user';
import { useCreditBalance, useRefreshCreditBalance } from '@/features/credits/api/get-credit-balance';
import { JobResults } from '@/features/gallery/components/job-results';
import { useModelName } from '@/features/generate/api/get-models';
import { forgetJobImage } from '@/features/generate/api/get-progress';
import { GenerateStudio } from '@/features/generate/components/generate-studio';
import { lockSeed, useRemix } from '@/features/generate/hooks/use-remix';
import { usePromptFromUrl } from '@/features/generate/hooks/use-prompt-from-url';
import { sendToStudio } from '@/features/studio/stores/studio-store';
import { HAND_OFF_TOOLS } from '@/features/studio/tools';

/** The Generate page: composes the studio (generate), result cards (gallery) and the balance (credits). */
export default function GenerateRoute() {
  const { t } = useTranslation();
  const title = t('pages.generate.title');
  useDocumentTitle(title);
  usePromptFromUrl();
  const balance = useCreditBalance();
  const refreshBalance = useRefreshCreditBalance();
  const remix = useRemix();
  const modelName = useModelName();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { profile } = useUser();
  const onDeleted = useCallback((image: ImageView) => forgetJobImage(queryClient, image.id), [queryClient]);
  const openInStudio = useMemo(
    () => ({
      tools: HAND_OFF_TOOLS,
      open: (tool: Tool, image: ImageView) => {
        sendToStudio(tool, image);
        void navigate(`${paths.studio}?tool=${tool}`);
      },
    }),
    [navigate],
  );
  const renderResults = useCallback(
    (job: JobView) => (
      <JobResults
        job={job}
        onRemix={remix}
        onUseSeed={lockSeed}
        modelName={modelName}
        onOpenInStudio={openInStudio}
        onDeleted={onDeleted}
      />
    ),
    [remix, modelName, openInStudio, onDeleted],
  );
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<SparklesIcon />} title={title} description={t('pages.generate.description')} />
      <GenerateStudio
        balance={balance.data?.balance}
        onCreditsChanged={refreshBalance}
        renderResults={renderResults}
        isOperator={profile.isOperator}
      />
    </div>
  );
}
