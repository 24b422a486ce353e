import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { WandIcon } from '@/components/ui/icons';

export default function StudioRoute() {
  return <PlaceholderPage page="studio" icon={<WandIcon />} />;
}
