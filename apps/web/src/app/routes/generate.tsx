import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { SparklesIcon } from '@/components/ui/icons';

export default function GenerateRoute() {
  return <PlaceholderPage page="generate" icon={<SparklesIcon />} />;
}
