import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { GiftIcon } from '@/components/ui/icons';

export default function ReferralsRoute() {
  return <PlaceholderPage page="referrals" icon={<GiftIcon />} />;
}
