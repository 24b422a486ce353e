import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ImagesIcon } from '@/components/ui/icons';
import { ExamplesView } from '@/features/examples/components/examples-view';
import { useModelName } from '@/features/generate/api/get-models';

/** Public examples, for everyone: by category, with the prompt and model, and "Try this prompt". */
export default function ExamplesRoute() {
  const { t } = useTranslation();
  const title = t('pages.examples.title');
  useDocumentTitle(title);
  const modelName = useModelName();
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<ImagesIcon />} title={title} description={t('pages.examples.description')} />
      <ExamplesView modelName={modelName} />
    </div>
  );
}
