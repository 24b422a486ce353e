import { PlaceholderPage } from '@/components/layouts/placeholder-page';
import { ImagesIcon } from '@/components/ui/icons';

export default function GalleryRoute() {
  return <PlaceholderPage page="gallery" icon={<ImagesIcon />} />;
}
