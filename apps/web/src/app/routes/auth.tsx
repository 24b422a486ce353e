import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { KeyIcon } from '@/components/ui/icons';

export default function AuthRoute() {
  return <PlaceholderPage page="auth" icon={<KeyIcon />} />;
}
