import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { problemsOf } from '../../config.test-helpers.ts';

/** OAUTH_CLIENTS_JSON is checked at start-up; each problem names the setting and the client. */

const ok = {
  client_id: 'studio',
  name: 'Studio',
  redirect_uris: ['https://studio.example/cb'],
  first_party: true,
};
const problems = (clients: unknown) => problemsOf({ OAUTH_CLIENTS_JSON: JSON.stringify(clients) });

describe('OAUTH_CLIENTS_JSON', () => {
  it('reads clients with their defaults (PKCE public client, code + refresh grants, openid email offline_access)', () => {
    const config = loadConfig({
      OAUTH_CLIENTS_JSON: JSON.stringify([ok, { ...ok, client_id: 'server', client_secret: 's'.repeat(32) }]),
    });
    expect(config.auth.oauthClients).toEqual([
      expect.objectContaining({
        clientId: 'studio',
        clientSecret: undefined,
        name: 'Studio',
        firstParty: true,
        postLogoutRedirectUris: [],
        scopes: ['openid', 'email', 'offline_access'],
        grantTypes: ['authorization_code', 'refresh_token'],
      }),
      expect.objectContaining({ clientId: 'server', clientSecret: 's'.repeat(32) }),
    ]);
    expect(loadConfig({}).auth.oauthClients).toEqual([]);
  });

  it('names the setting and the client in each problem', () => {
    expect(problemsOf({ OAUTH_CLIENTS_JSON: '[{' })).toEqual([
      expect.stringMatching(/^OAUTH_CLIENTS_JSON: must be JSON/),
    ]);
    expect(problems([ok, { ...ok, client_id: 'mobile', redirect_uris: [] }])).toEqual([
      expect.stringMatching(/^OAUTH_CLIENTS_JSON: client "mobile": redirect_uris needs at least one/),
    ]);
    expect(problems([{ ...ok, redirect_uris: ['not a url'] }])).toEqual([
      expect.stringMatching(/^OAUTH_CLIENTS_JSON: client "studio": redirect_uris\.0 /),
    ]);
    // The value is never echoed: it holds client secrets.
    expect(problems([{ ...ok, client_secret: 'short-secret' }])).toEqual([
      'OAUTH_CLIENTS_JSON: client "studio": client_secret must be at least 32 characters',
    ]);
    expect(problems([ok, ok])).toEqual([expect.stringMatching(/client "studio": client_id appears twice/)]);
    expect(problems([{ name: 'x', redirect_uris: ['https://a.example/cb'], first_party: true }])).toEqual([
      expect.stringMatching(/^OAUTH_CLIENTS_JSON: client #1: client_id /),
    ]);
  });

  it('refuses third-party clients clearly: there is no consent screen', () => {
    expect(problems([{ ...ok, first_party: false }])).toEqual([
      expect.stringMatching(/client "studio": first_party only first-party clients are supported/),
    ]);
  });
});
