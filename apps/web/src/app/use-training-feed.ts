import { useProgress } from '@/features/generate/api/get-progress';
import { useJobTransitions } from '@/features/generate/hooks/use-job-transitions';
import { useProgressSync } from '@/features/generate/hooks/use-progress-sync';
import { useRefreshTrainedModels } from '@/features/training/api/my-models';

/**
 * The live job feed for the training pages: a training that ends (ready, failed or cancelled) refetches
 * the person's models and the pickers' catalogue, and a refunded one the balance.
 */
export function useTrainingFeed(refreshBalance: () => void) {
  const stream = useProgressSync();
  const progress = useProgress({ live: stream === 'live' });
  const refreshModels = useRefreshTrainedModels();
  useJobTransitions(progress.data?.jobs, {
    onRefund: (job) => {
      refreshBalance();
      if (job.kind === 'train') refreshModels();
    },
    onSucceeded: (job) => {
      if (job.kind === 'train') refreshModels();
    },
  });
  return progress.data?.jobs;
}
