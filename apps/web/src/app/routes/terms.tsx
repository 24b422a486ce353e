import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { LegalDocument } from '@/features/legal/components/legal-document';

/** The Terms of Service, as the operator provides them (TERMS_FILE). */
export default function TermsRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.terms.title'));
  return <LegalDocument page="terms" />;
}
