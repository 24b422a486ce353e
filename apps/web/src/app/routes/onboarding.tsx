import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { CompassIcon } from '@/components/ui/icons';

export default function OnboardingRoute() {
  return <PlaceholderPage page="onboarding" icon={<CompassIcon />} />;
}
