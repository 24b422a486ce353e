import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { GiftIcon } from '@/components/ui/icons';
import { useReferralValidation } from '../api/validate-referral';
import { defaultStorages, readStoredReferral, referralCodeIn } from '../referral-capture';

/**
 * For a visitor who arrived with `?ref=` (or holds a code from an earlier page, as on the sign-in card
 * reached from the landing page): who invited them and what they will get, from
 * GET /api/referrals/validate/{code}; a code that cannot be used gets a gentle note, a failed check
 * nothing at all.
 */
export function ReferralNotice({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const [search] = useSearchParams();
  const code = referralCodeIn(`?${search.toString()}`) ?? readStoredReferral(defaultStorages())?.code ?? null;
  const validation = useReferralValidation(code);
  if (!validation.data) return null;
  const { valid, reason, referrer_name, welcome_credits } = validation.data;
  if (!valid) {
    return (
      <Alert tone="info" className={className} testId="referral-notice">
        {reason
          ? t('referrals.notice.invalid', { reason: reason.replace(/\.$/, '') })
          : t('referrals.notice.invalidNoReason')}
      </Alert>
    );
  }
  return (
    <Alert
      tone="success"
      icon={<GiftIcon className="mt-0.5 size-4 shrink-0" />}
      className={className}
      testId="referral-notice"
    >
      <strong className="font-semibold">
        {referrer_name
          ? t('referrals.notice.invited', { name: referrer_name })
          : t('referrals.notice.invitedAnonymous')}
      </strong>{' '}
      {welcome_credits > 0 &&
        t('referrals.notice.welcome', {
          welcome: new Intl.NumberFormat(i18n.language).format(welcome_credits),
        })}
    </Alert>
  );
}
