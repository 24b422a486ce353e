import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { DocumentIcon } from '@/components/ui/icons';

export default function TermsRoute() {
  return <PlaceholderPage page="terms" icon={<DocumentIcon />} />;
}
