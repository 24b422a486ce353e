import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "<page> · Lumina" (pattern from the translation file). */
export function useDocumentTitle(page: string) {
  const { t } = useTranslation();
  const title = t('app.documentTitle', { page });
  useEffect(() => {
    document.title = title;
  }, [title]);
}
