import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { LegalDocument } from '@/features/legal/components/legal-document';

/** The Privacy Policy, as the operator provides it (PRIVACY_FILE). */
export default function PrivacyRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.privacy.title'));
  return <LegalDocument page="privacy" />;
}
