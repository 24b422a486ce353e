import { beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '@lumina/contracts';
import { setupLocalServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { createApiClient } from '@/lib/api-client';
import { initI18n } from '@/lib/i18n';
import { getUser, ProfileError } from './get-user';

const server = setupLocalServer();
const USER_ID = '0b6f6a36-5d55-4c1e-9d4b-6a1f3f1f0b11';

beforeAll(() => initI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` }));

const source = (token: string | null) => ({
  getToken: async () => token,
  client: createApiClient({ baseUrl: server.url, getAccessToken: () => token }),
});

const reasonOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProfileError);
  return (error as ProfileError).reason;
};

describe('GET /api/user profile', () => {
  it('sends the bearer token and accepts a profile with an email', async () => {
    server.on(contracts.currentUser, (req) =>
      req.headers.authorization === 'Bearer token-1'
        ? answer(contracts.currentUser, {
            id: USER_ID,
            email: 'ada@example.com',
            is_operator: true,
            onboarded: true,
          })
        : answerError(401, 'UNAUTHORISED', 'no'),
    );
    await expect(getUser(undefined, source('token-1'))).resolves.toEqual({
      id: USER_ID,
      email: 'ada@example.com',
      isOperator: true,
      onboarded: true,
    });
  });

  it('fails with "no access token" before calling the server when there is no session', async () => {
    const before = server.requests.length;
    expect(await reasonOf(getUser(undefined, source(null)))).toBe('noAccessToken');
    expect(server.requests.length).toBe(before);
  });

  it('fails with "failed to fetch" when the call fails', async () => {
    server.on(contracts.currentUser, () => answerError(500, 'INTERNAL', 'boom'));
    expect(await reasonOf(getUser(undefined, source('token-1')))).toBe('fetchFailed');
  });

  it('fails with "email not found" when the profile has no email', async () => {
    server.answer(contracts.currentUser, { id: USER_ID, email: null, is_operator: false, onboarded: true });
    expect(await reasonOf(getUser(undefined, source('token-1')))).toBe('emailNotFound');
  });
});
