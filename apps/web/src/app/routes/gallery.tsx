import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ImageView, Tool } from '@lumina/contracts';
import { paths } from '@/config/paths';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ImagesIcon } from '@/components/ui/icons';
import { GalleryView } from '@/features/gallery/components/gallery-view';
import { useModels } from '@/features/generate/api/get-models';
import { lockSeed, remixInto } from '@/features/generate/hooks/use-remix';
import { VideoList } from '@/features/studio/components/video-list';
import { sendToStudio } from '@/features/studio/stores/studio-store';
import { HAND_OFF_TOOLS } from '@/features/studio/tools';

/**
 * The Gallery page: the gallery feature, with remix handing the recipe to the Generate form and
 * "Open in Studio" handing the image to a Studio tool.
 */
export default function GalleryRoute() {
  const { t } = useTranslation();
  const title = t('pages.gallery.title');
  useDocumentTitle(title);
  const navigate = useNavigate();
  const models = useModels();
  const remix = (image: ImageView) => {
    remixInto(image, models.data?.models);
    void navigate(paths.generate);
  };
  const reuseSeed = (seed: number) => {
    lockSeed(seed);
    void navigate(paths.generate);
  };
  const openInStudio = (tool: Tool, image: ImageView) => {
    sendToStudio(tool, image);
    void navigate(`${paths.studio}?tool=${tool}`);
  };
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<ImagesIcon />} title={title} description={t('pages.gallery.description')} />
      <GalleryView
        models={models.data?.models}
        onRemix={remix}
        onUseSeed={reuseSeed}
        onOpenInStudio={{ tools: HAND_OFF_TOOLS, open: openInStudio }}
        renderVideos={() => (
          <VideoList onUseAs={openInStudio} heading={false} columns="sm:grid-cols-2 lg:grid-cols-3" />
        )}
      />
    </div>
  );
}
