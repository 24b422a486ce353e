import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { GiftIcon } from '@/components/ui/icons';
import { LoadingBlock } from '@/components/ui/query-states';
import { useProductSession, useSession } from '@/lib/auth';
import { ProgrammeIntro } from '@/features/referrals/components/programme-intro';
import { ReferralsView } from '@/features/referrals/components/referrals-view';

/**
 * /referrals: a signed-in person's link, numbers, codes and the people who joined; a visitor without a
 * session sees what the programme offers and a way to sign up (so the page is public).
 */
export default function ReferralsRoute() {
  const { t } = useTranslation();
  const title = t('pages.referrals.title');
  useDocumentTitle(title);
  const status = useSession((s) => s.status);
  // Half signed in (a second factor pending) counts as a visitor: the server refuses their product calls.
  const { userId } = useProductSession();
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<GiftIcon />} title={title} description={t('pages.referrals.description')} />
      {userId !== null ? <ReferralsView /> : status !== 'unknown' ? <ProgrammeIntro /> : <LoadingBlock />}
    </div>
  );
}
