import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { onboardingContract, submitOnboardingContract, type OnboardingView } from '@lumina/contracts';
import { renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../../../public/locales/en/common.json';
import { AboutYouPanel } from './about-you-panel';

const { server, i18n } = setupApiServer();
const ob = commonEn.onboarding;

const stored: OnboardingView = {
  use_case: 'marketing',
  country: 'DE',
  phone: '+4930123456',
  referral_source: 'podcast',
  gender: 'female',
  onboarded: true,
  completed_at: '2026-01-01T12:00:00.000Z',
  skipped_at: null,
};

afterEach(() => cleanup());

describe("the account page's About you", () => {
  it('shows the stored answers and saves an edit with the same request as onboarding', async () => {
    server.answer(onboardingContract, stored);
    server.on(submitOnboardingContract, (req) =>
      answer(submitOnboardingContract, { ...stored, ...(JSON.parse(req.body) as Partial<OnboardingView>) }),
    );
    renderWithApp(<AboutYouPanel />, { i18n });
    await screen.findByTestId('account-about-you-form');
    expect((screen.getByLabelText(ob.about.useCase) as HTMLSelectElement).value).toBe('marketing');
    expect((screen.getByLabelText(ob.about.country) as HTMLSelectElement).value).toBe('DE');
    expect((screen.getByLabelText(ob.about.phone) as HTMLInputElement).value).toBe('+4930123456');
    expect((screen.getByLabelText(ob.about.referral) as HTMLSelectElement).value).toBe('podcast');
    expect((screen.getByLabelText(ob.about.gender) as HTMLSelectElement).value).toBe('female');
    // The country list is named in the reader's language, not by code.
    expect(screen.getByRole('option', { name: 'Germany' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText(ob.about.country), { target: { value: 'AT' } });
    fireEvent.change(screen.getByLabelText(ob.about.gender), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('about-you-save'));
    expect((await screen.findByTestId('about-you-saved')).textContent).toBe(ob.about.saved);
    const post = server.requests.find((r) => r.method === 'POST' && r.url === '/api/onboarding')!;
    expect(JSON.parse(post.body)).toEqual({
      use_case: 'marketing',
      country: 'AT',
      phone: '+4930123456',
      referral_source: 'podcast',
    });
  });

  it('says why the answers could not be loaded', async () => {
    server.on(onboardingContract, () => answerError(503, 'SERVICE_UNAVAILABLE', 'Down for a moment'));
    renderWithApp(<AboutYouPanel />, { i18n });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Down for a moment'));
    expect(screen.queryByTestId('account-about-you-form')).toBeNull();
  });
});
