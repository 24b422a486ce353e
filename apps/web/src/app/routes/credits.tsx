import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { CoinsIcon } from '@/components/ui/icons';

export default function CreditsRoute() {
  return <PlaceholderPage page="credits" icon={<CoinsIcon />} />;
}
