import { useTranslation } from 'react-i18next';
import type { ImageCredentialsView } from '@lumina/contracts';

/** The C2PA content credentials read back from the file, in plain words (issue 17). */
export function CredentialsSummary({
  credentials,
  createdAt,
  subject = 'image',
}: {
  credentials: ImageCredentialsView;
  /** When the file was stored (and so signed), for credentials without a timestamp of their own. */
  createdAt: string;
  /** What the file is: a video is said to be animated from its image, not edited. */
  subject?: 'image' | 'video';
}) {
  const { t, i18n } = useTranslation();
  if (!credentials.present)
    return (
      <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid="credentials-none">
        {t(subject === 'video' ? 'gallery.credentials.noneVideo' : 'gallery.credentials.none')}
      </p>
    );
  const edited = credentials.actions.includes('c2pa.edited');
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(credentials.signed_at ?? createdAt),
  );
  const lines: Array<[string, string]> = [];
  if (credentials.made_with_ai)
    lines.push([
      'credentials-made',
      credentials.model && credentials.vendor
        ? t('gallery.credentials.madeWithAiBy', { model: credentials.model, vendor: credentials.vendor })
        : t('gallery.credentials.madeWithAi'),
    ]);
  if (edited)
    lines.push([
      'credentials-edited',
      t(subject === 'video' ? 'gallery.credentials.animatedFrom' : 'gallery.credentials.editedFrom', {
        count: credentials.ingredients.length,
      }),
    ]);
  if (credentials.issuer)
    lines.push([
      'credentials-signed',
      t('gallery.credentials.signedBy', { issuer: credentials.issuer, date }),
    ]);
  if (credentials.generator)
    lines.push([
      'credentials-generator',
      t('gallery.credentials.generator', { generator: credentials.generator }),
    ]);
  return (
    <div className="flex flex-col gap-1 text-sm">
      {lines.map(([testId, line]) => (
        <p key={testId} data-testid={testId}>
          {line}
        </p>
      ))}
      <p
        data-testid="credentials-validity"
        className={
          credentials.valid
            ? 'text-emerald-700 dark:text-emerald-400'
            : 'font-medium text-red-700 dark:text-red-400'
        }
      >
        {credentials.valid ? t('gallery.credentials.valid') : t('gallery.credentials.invalid')}
      </p>
    </div>
  );
}
