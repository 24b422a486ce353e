import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useReferralStats } from '../api/get-referral-stats';
import { ReferralCodes } from './referral-codes';
import { ReferralPeople } from './referral-people';
import { ReferralStats } from './referral-stats';
import { ShareLink } from './share-link';

/** The signed-in person's referrals: their link, numbers, codes and the people who joined. */
export function ReferralsView() {
  const stats = useReferralStats();
  if (stats.isPending) return <LoadingBlock />;
  if (stats.isError) return <QueryError error={stats.error} onRetry={() => void stats.refetch()} />;
  const codes = stats.data.codes;
  // The default code's link when it still works, else the first code that does.
  const usable = codes.filter((c) => c.active && !c.expired);
  const link = (usable.find((c) => c.is_default) ?? usable[0])?.link ?? null;
  return (
    <div className="flex flex-col gap-8">
      <ShareLink link={link} />
      <ReferralStats stats={stats.data} />
      <ReferralCodes codes={codes} />
      <ReferralPeople />
    </div>
  );
}
