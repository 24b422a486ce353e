import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { ShieldIcon } from '@/components/ui/icons';

export default function PrivacyRoute() {
  return <PlaceholderPage page="privacy" icon={<ShieldIcon />} />;
}
