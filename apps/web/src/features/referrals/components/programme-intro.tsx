import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { ButtonLink } from '@/components/ui/button-link';
import { authUrlFor } from '@/lib/supertokens-config';
import { useReferralTerms } from '../api/get-referral-terms';
import { panelClass } from './panel';

/** What the programme offers a visitor without a session, and the way in. */
export function ProgrammeIntro() {
  const { t, i18n } = useTranslation();
  const terms = useReferralTerms();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <section aria-labelledby="referral-intro-title" className={`${panelClass} flex flex-col gap-4`}>
      <h2 id="referral-intro-title" className="text-lg font-semibold">
        {t('referrals.intro.title')}
      </h2>
      {terms.data && (
        <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="referral-intro-terms">
          <li>{t('referrals.intro.reward', { reward: number.format(terms.data.reward_credits) })}</li>
          <li>{t('referrals.intro.welcome', { welcome: number.format(terms.data.welcome_credits) })}</li>
          <li>{t('referrals.intro.cap', { cap: number.format(terms.data.monthly_cap) })}</li>
          <li>{t('referrals.intro.settling', { days: number.format(terms.data.settle_days) })}</li>
          <li>{t('referrals.intro.fairUse')}</li>
        </ul>
      )}
      <div>
        <ButtonLink to={authUrlFor(paths.referrals)}>{t('referrals.intro.signUp')}</ButtonLink>
      </div>
    </section>
  );
}
