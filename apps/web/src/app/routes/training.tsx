import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { BrainIcon } from '@/components/ui/icons';

export default function TrainingRoute() {
  return <PlaceholderPage page="training" icon={<BrainIcon />} />;
}
