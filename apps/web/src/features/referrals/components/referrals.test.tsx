import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  ALREADY_REFERRED,
  contracts,
  type ReferralCodeView,
  type ReferralStats,
  type ReferralView,
} from '@lumina/contracts';
import { AppProvider } from '@/app/provider';
import { sessionStore } from '@/lib/auth';
import { newQueryClient, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { REFERRAL_STORAGE_KEY } from '../referral-capture';
import { ProgrammeIntro } from './programme-intro';
import { ReferralCapture } from './referral-capture';
import { ReferralNotice } from './referral-notice';
import { ReferralsView } from './referrals-view';

const { server, i18n } = setupApiServer();
beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});
/** jsdom's navigator has neither `clipboard` nor `share`: set them for a test, removed after it. */
const navigatorStubs: string[] = [];
function stubNavigator(props: Record<string, unknown>) {
  for (const [key, value] of Object.entries(props)) {
    Object.defineProperty(navigator, key, { value, configurable: true });
    navigatorStubs.push(key);
  }
}
afterEach(() => {
  cleanup();
  for (const key of navigatorStubs.splice(0)) Reflect.deleteProperty(navigator, key);
});

const code = (overrides: Partial<ReferralCodeView> = {}): ReferralCodeView => ({
  code: 'ADA-2026',
  active: true,
  is_default: true,
  expires_at: null,
  expired: false,
  link: 'http://lumina.test/?ref=ADA-2026',
  visits: 12,
  signups: 3,
  completed: 1,
  credits_earned: 100,
  credits_pending: 0,
  created_at: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

const stats = (codes: ReferralCodeView[] = [code()]): ReferralStats => ({
  visits: 1234,
  signups: 3,
  completed: 1,
  credits_earned: 100,
  credits_pending: 200,
  reward_credits: 100,
  welcome_credits: 50,
  monthly_cap: 20,
  settle_days: 14,
  rewarded_this_month: 1,
  codes,
});

const person = (overrides: Partial<ReferralView> = {}): ReferralView => ({
  id: '00000000-0000-4000-8000-000000000001',
  email: 'b•••@e•••.com',
  code: 'ADA-2026',
  status: 'completed',
  reward_credits: 100,
  not_eligible_reason: null,
  joined_at: '2026-11-02T10:00:00.000Z',
  completed_at: '2026-11-03T10:00:00.000Z',
  settles_at: null,
  ...overrides,
});

const requestsTo = (method: string, prefix: string) =>
  server.requests.filter((r) => r.method === method && r.url.startsWith(prefix));

describe('the referrals page (signed in)', () => {
  it('shows the default link with Copy and Share, the numbers and terms, the codes and the people', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    const share = vi.fn().mockResolvedValue(undefined);
    stubNavigator({ clipboard: { writeText }, share });
    server.answer(
      contracts.referralStats,
      stats([code({ code: 'SPRING', is_default: false, link: 'http://lumina.test/?ref=SPRING' }), code()]),
    );
    server.answer(contracts.referralsList, {
      referrals: [
        person(),
        person({ id: '00000000-0000-4000-8000-000000000002', status: 'clawed_back', reward_credits: 0 }),
        person({
          id: '00000000-0000-4000-8000-000000000003',
          status: 'settling',
          settles_at: '2026-11-17T10:00:00.000Z',
        }),
        person({
          id: '00000000-0000-4000-8000-000000000004',
          status: 'not_eligible',
          not_eligible_reason: 'shared_card',
          reward_credits: 0,
        }),
      ],
    });
    renderWithApp(<ReferralsView />, { i18n });

    const link = (await screen.findByTestId('referral-link')) as HTMLInputElement;
    expect(link.value).toBe('http://lumina.test/?ref=ADA-2026');
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await screen.findByRole('button', { name: 'Copied' });
    expect(writeText).toHaveBeenCalledWith('http://lumina.test/?ref=ADA-2026');
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: 'http://lumina.test/?ref=ADA-2026' }));

    expect(screen.getByTestId('referral-stat-visits').textContent).toContain('1,234');
    expect(screen.getByTestId('referral-stat-creditsEarned').textContent).toContain('100');
    expect(screen.getByTestId('referral-stat-creditsPending').textContent).toBe('Credits pending200');
    expect(screen.getByTestId('referral-terms').textContent).toBe(
      'You get 100 credits for each friend whose first payment goes through, and they get 50. At most 20 rewarded referrals a month (1 so far this month). ' +
        "Credits stay pending for 14 days after your friend's first payment and can be spent after that. If the payment is refunded or disputed in that time, the pending credits are cancelled; after it, a refund takes them back. " +
        'Friends must be separate people: no credits are paid for a friend who signs up from your address or the same address as another friend you invited, or who pays with your card or the same card as another friend.',
    );
    const rows = screen.getAllByTestId('referral-code');
    expect(rows.map((r) => r.getAttribute('data-code'))).toEqual(['SPRING', 'ADA-2026']);
    expect(within(rows[1]!).getByText('Default')).toBeTruthy();
    expect(rows[1]!.textContent).toContain('12 visits · 3 sign-ups · 1 completed · Never expires');

    const people = await screen.findAllByTestId('referral-person');
    expect(within(people[0]!).getByText('b•••@e•••.com')).toBeTruthy();
    expect(within(people[0]!).getByText('Completed, rewarded')).toBeTruthy();
    expect(within(people[0]!).getByText('100 credits')).toBeTruthy();
    expect(
      within(people[1]!).getByText('Payment refunded or disputed, reward cancelled or taken back'),
    ).toBeTruthy();
    expect(within(people[2]!).getByTestId('referral-person-status').textContent).toBe(
      'Paid, credits pending until Nov 17, 2026',
    );
    expect(within(people[3]!).getByTestId('referral-person-status').textContent).toBe(
      'Not eligible: shared payment details with you or another friend you invited',
    );
    expect(within(people[3]!).getByText('0 credits')).toBeTruthy();
  });

  it('offers no link when no code works, and says nobody joined yet', async () => {
    server.answer(contracts.referralStats, stats([code({ active: false })]));
    server.answer(contracts.referralsList, { referrals: [] });
    renderWithApp(<ReferralsView />, { i18n });
    expect(await screen.findByText('You have no active code. Make one below to get a link.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    expect(screen.queryByTestId('referral-link')).toBeNull();
    expect(await screen.findByTestId('referral-people-empty')).toBeTruthy();
    expect(within(screen.getAllByTestId('referral-code')[0]!).getByText('Off')).toBeTruthy();
  });

  it('makes a code with an expiry, refuses a malformed one without asking, and shows the server’s refusal', async () => {
    server.answer(contracts.referralStats, stats());
    server.answer(contracts.referralsList, { referrals: [] });
    let taken = false;
    server.on(contracts.createReferralCode, () =>
      taken
        ? answerError(409, 'CONFLICT', 'That code is taken')
        : answer(contracts.createReferralCode, code({ code: 'SUMMER', is_default: false }), 201),
    );
    renderWithApp(<ReferralsView />, { i18n });
    const input = await screen.findByLabelText('Code (optional)');
    fireEvent.change(input, { target: { value: 'no way!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make a code' }));
    expect(await screen.findByText('A code is 4 to 32 letters, digits or dashes.')).toBeTruthy();
    expect(requestsTo('POST', '/api/referrals/referral-codes')).toHaveLength(0);

    fireEvent.change(input, { target: { value: ' SUMMER ' } });
    fireEvent.change(screen.getByLabelText('Expires on (optional)'), { target: { value: '2026-12-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make a code' }));
    await waitFor(() => expect(requestsTo('POST', '/api/referrals/referral-codes')).toHaveLength(1));
    const body = JSON.parse(requestsTo('POST', '/api/referrals/referral-codes')[0]!.body) as {
      code: string;
      expires_at: string;
    };
    expect(body.code).toBe('SUMMER');
    expect(new Date(body.expires_at).getTime()).toBe(new Date('2026-12-31T23:59:59.999').getTime());
    // The stats (and so the codes) are asked for again.
    await waitFor(() => expect(requestsTo('GET', '/api/referrals/stats').length).toBe(2));
    await waitFor(() => expect((input as HTMLInputElement).value).toBe(''));

    taken = true;
    fireEvent.change(input, { target: { value: 'SUMMER' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make a code' }));
    expect(await screen.findByText('That code is taken')).toBeTruthy();
  });

  it('turns a code off, and deletes one only after the confirmation', async () => {
    server.answer(contracts.referralStats, stats([code(), code({ code: 'SPRING', is_default: false })]));
    server.answer(contracts.referralsList, { referrals: [] });
    server.answer(contracts.toggleReferralCode, code({ code: 'SPRING', is_default: false, active: false }));
    server.answer(contracts.deleteReferralCode, { deleted: true });
    renderWithApp(<ReferralsView />, { i18n });
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off SPRING' }));
    await waitFor(() =>
      expect(requestsTo('PUT', '/api/referrals/referral-codes/SPRING/toggle')).toHaveLength(1),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Delete SPRING' }));
    expect(await screen.findByText('Delete the code SPRING?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByText('Delete the code SPRING?')).toBeNull());
    expect(requestsTo('DELETE', '/api/referrals/referral-codes')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete SPRING' }));
    fireEvent.click(await screen.findByTestId('delete-referral-code-confirm'));
    await waitFor(() => expect(requestsTo('DELETE', '/api/referrals/referral-codes/SPRING')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Delete the code SPRING?')).toBeNull());
  });

  it('shows the server’s words when a code cannot be deleted (someone else’s: 404)', async () => {
    server.answer(contracts.referralStats, stats([code({ code: 'SPRING', is_default: false })]));
    server.answer(contracts.referralsList, { referrals: [] });
    server.on(contracts.deleteReferralCode, () => answerError(404, 'NOT_FOUND', 'No such referral code'));
    renderWithApp(<ReferralsView />, { i18n });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete SPRING' }));
    fireEvent.click(await screen.findByTestId('delete-referral-code-confirm'));
    expect((await screen.findByTestId('delete-referral-code-error')).textContent).toBe(
      'No such referral code',
    );
  });
});

describe('the programme for a visitor without a session', () => {
  it('shows the rewards from the public config and a sign-up link that returns to /referrals', async () => {
    server.answer(contracts.publicConfig, {
      analytics: null,
      referrals: { reward_credits: 150, welcome_credits: 75, monthly_cap: 10, settle_days: 14 },
    });
    renderWithApp(<ProgrammeIntro />, { i18n });
    const terms = await screen.findByTestId('referral-intro-terms');
    expect(terms.textContent).toContain('You get 150 credits for each friend');
    expect(terms.textContent).toContain('Your friend gets 75 credits');
    expect(terms.textContent).toContain('Up to 10 rewarded referrals a month.');
    expect(terms.textContent).toContain(
      'Credits stay pending for 14 days after the payment; a refund or dispute in that time cancels them.',
    );
    expect(terms.textContent).toContain(
      "No credits for friends who share your address or card, or each other's.",
    );
    expect(screen.getByRole('link', { name: 'Sign up to get your link' }).getAttribute('href')).toBe(
      '/auth?redirectToPath=%2Freferrals',
    );
  });
});

function renderAt(path: string, ui: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [path] });
  return render(
    <AppProvider i18n={i18n} queryClient={newQueryClient()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
}

describe('the invitation notice', () => {
  it('names who invited the visitor and what they will get', async () => {
    server.on(contracts.validateReferral, (req) =>
      answer(contracts.validateReferral, {
        valid: req.params.code === 'ADA-2026',
        reason: null,
        referrer_name: 'Ada',
        welcome_credits: 50,
      }),
    );
    renderAt('/?ref=ADA-2026', <ReferralNotice />);
    const notice = await screen.findByTestId('referral-notice');
    expect(notice.textContent).toBe(
      'Ada invited you to Lumina. Sign up and get 50 extra credits with your first purchase.',
    );
    expect(requestsTo('GET', '/api/referrals/validate/ADA-2026')).toHaveLength(1);
  });

  it('gives a gentle note for a code that cannot be used, and nothing when the check fails', async () => {
    server.on(contracts.validateReferral, (req) =>
      req.params.code === 'OLD-CODE'
        ? answer(contracts.validateReferral, {
            valid: false,
            reason: 'This code has expired.',
            referrer_name: null,
            welcome_credits: 50,
          })
        : answerError(429, 'RATE_LIMITED', 'Too many requests'),
    );
    renderAt('/?ref=OLD-CODE', <ReferralNotice />);
    expect((await screen.findByTestId('referral-notice')).textContent).toBe(
      'This invite link cannot be used (This code has expired). You can still sign up as usual.',
    );
    cleanup();
    renderAt('/auth?ref=BUSY-CODE', <ReferralNotice />);
    await waitFor(() => expect(requestsTo('GET', '/api/referrals/validate/BUSY-CODE')).toHaveLength(1));
    expect(screen.queryByTestId('referral-notice')).toBeNull();
  });

  it('uses a held code on a page without ?ref= (the sign-in card), and asks nothing without one', async () => {
    server.answer(contracts.validateReferral, {
      valid: true,
      reason: null,
      referrer_name: 'Ada',
      welcome_credits: 0,
    });
    renderAt('/auth', <ReferralNotice />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requestsTo('GET', '/api/referrals/validate')).toHaveLength(0);
    cleanup();
    window.localStorage.setItem(
      REFERRAL_STORAGE_KEY,
      JSON.stringify({
        code: 'ADA-2026',
        timestamp: 1,
        source_url: '/',
        held: true,
        tracking_attempted: false,
      }),
    );
    renderAt('/auth', <ReferralNotice />);
    expect((await screen.findByTestId('referral-notice')).textContent).toBe('Ada invited you to Lumina. ');
  });
});

describe('the capture in the app frame', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('stores ?ref= and, signed in, tracks it once about a second later; already referred clears it', async () => {
    sessionStore.setState({ status: 'signedIn', userId: 'user-1' });
    server.on(contracts.trackReferral, () => answerError(409, 'CONFLICT', ALREADY_REFERRED));
    window.history.replaceState(null, '', '/products?ref=ADA-2026');
    renderAt('/products?ref=ADA-2026', <ReferralCapture />);
    expect(JSON.parse(window.sessionStorage.getItem(REFERRAL_STORAGE_KEY)!)).toMatchObject({
      code: 'ADA-2026',
      held: true,
      tracking_attempted: false,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(requestsTo('POST', '/api/referrals/track')).toHaveLength(0);
    await waitFor(() => expect(requestsTo('POST', '/api/referrals/track')).toHaveLength(1), {
      timeout: 2000,
    });
    expect(requestsTo('POST', '/api/referrals/track')[0]!.url).toBe(
      '/api/referrals/track?referral_code=ADA-2026',
    );
    await waitFor(() => expect(window.localStorage.getItem(REFERRAL_STORAGE_KEY)).toBeNull());
    expect(window.sessionStorage.getItem(REFERRAL_STORAGE_KEY)).toBeNull();
  });

  it('waits while the sign-in waits for its second factor, and tracks once it is complete', async () => {
    sessionStore.setState({ status: 'signedIn', userId: 'user-1', pending: true });
    server.on(contracts.trackReferral, () => answerError(409, 'CONFLICT', ALREADY_REFERRED));
    window.history.replaceState(null, '', '/?ref=ADA-2026');
    renderAt('/?ref=ADA-2026', <ReferralCapture />);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(requestsTo('POST', '/api/referrals/track')).toHaveLength(0);
    sessionStore.setState({ pending: false, sessionKey: sessionStore.getState().sessionKey + 1 });
    await waitFor(() => expect(requestsTo('POST', '/api/referrals/track')).toHaveLength(1));
    // The answer (already referred) clears the stored code; wait for it so it cannot land in the next test.
    await waitFor(() => expect(window.localStorage.getItem(REFERRAL_STORAGE_KEY)).toBeNull());
    sessionStore.setState({ status: 'signedOut', userId: null, pending: false });
  });

  it('keeps the code and sends nothing without a session', async () => {
    sessionStore.setState({ status: 'signedOut', userId: null });
    window.history.replaceState(null, '', '/?ref=ADA-2026');
    renderAt('/?ref=ADA-2026', <ReferralCapture />);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(requestsTo('POST', '/api/referrals/track')).toHaveLength(0);
    expect(JSON.parse(window.localStorage.getItem(REFERRAL_STORAGE_KEY)!)).toMatchObject({
      code: 'ADA-2026',
    });
  });
});
