import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { UserIcon } from '@/components/ui/icons';

export default function AccountRoute() {
  return <PlaceholderPage page="account" icon={<UserIcon />} />;
}
