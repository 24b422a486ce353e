import { describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, exportPKCS8, jwtVerify, createLocalJWKSet } from 'jose';
import { loadConfig } from '../../config.ts';
import {
  bitbucketProfile,
  discordProfile,
  facebookProfile,
  githubProfile,
  OAUTH2_PRESETS,
  twitterProfile,
} from './oauth2.providers.ts';
import { appleClientSecret } from './thirdparty.service.ts';

describe('third-party profile adapters', () => {
  it('GitHub: takes the primary verified address from /user/emails, else any verified one', () => {
    expect(
      githubProfile({ id: 7, email: null }, [
        { email: 'old@x.test', primary: false, verified: true },
        { email: 'main@x.test', primary: true, verified: true },
      ]),
    ).toEqual({ userId: '7', email: 'main@x.test', emailVerified: true });
    expect(
      githubProfile({ id: 7 }, [
        { email: 'main@x.test', primary: true, verified: false },
        { email: 'ok@x.test', primary: false, verified: true },
      ]),
    ).toEqual({ userId: '7', email: 'ok@x.test', emailVerified: true });
    expect(githubProfile({ id: 7 }, [{ email: 'main@x.test', primary: true, verified: false }])).toEqual({
      userId: '7',
      email: 'main@x.test',
      emailVerified: false,
    });
    expect(githubProfile({ id: 7, email: null }, [])).toEqual({
      userId: '7',
      email: undefined,
      emailVerified: false,
    });
    expect(() => githubProfile({}, [])).toThrow(/no user id/);
  });

  it('Discord: the email counts as verified only when Discord says so', () => {
    expect(discordProfile({ id: '80351110224678912', email: 'n@x.test', verified: true })).toEqual({
      userId: '80351110224678912',
      email: 'n@x.test',
      emailVerified: true,
    });
    expect(discordProfile({ id: '1', email: 'n@x.test', verified: false }).emailVerified).toBe(false);
    expect(discordProfile({ id: '1' })).toEqual({ userId: '1', email: undefined, emailVerified: false });
  });

  it('Bitbucket: uuid as the id; the primary confirmed address from /user/emails', () => {
    expect(
      bitbucketProfile(
        { uuid: '{abc}', account_id: '557' },
        {
          values: [
            { email: 'b@x.test', is_primary: false, is_confirmed: true },
            { email: 'a@x.test', is_primary: true, is_confirmed: true },
          ],
        },
      ),
    ).toEqual({ userId: '{abc}', email: 'a@x.test', emailVerified: true });
    expect(
      bitbucketProfile(
        { account_id: '557' },
        { values: [{ email: 'a@x.test', is_primary: true, is_confirmed: false }] },
      ),
    ).toEqual({ userId: '557', email: 'a@x.test', emailVerified: false });
  });

  it('Facebook: the email is used but never trusted as verified', () => {
    expect(facebookProfile({ id: '10', email: 'f@x.test' })).toEqual({
      userId: '10',
      email: 'f@x.test',
      emailVerified: false,
    });
  });

  it('X: never an email (the NO_EMAIL_GIVEN_BY_PROVIDER path)', () => {
    expect(twitterProfile({ data: { id: '2244994945', username: 'XDevelopers' } })).toEqual({
      userId: '2244994945',
      emailVerified: false,
    });
  });

  it('each preset builds an authorisation URL for its own host, with PKCE where the provider takes it', () => {
    const hosts: Record<string, string> = {
      github: 'github.com',
      discord: 'discord.com',
      bitbucket: 'bitbucket.org',
      facebook: 'www.facebook.com',
      twitter: 'x.com',
    };
    // The hosts each provider gets from its settings' defaults (GITHUB_URL, DISCORD_URL, FACEBOOK_URL, ...).
    const configured = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: '.tmp/config-test',
      ...Object.fromEntries(
        Object.keys(hosts).flatMap((id) => [
          [`${id.toUpperCase()}_CLIENT_ID`, 'cid'],
          [`${id.toUpperCase()}_CLIENT_SECRET`, 's'],
        ]),
      ),
    }).auth.oauth2Providers;
    expect(configured.map((c) => c.id).sort()).toEqual(Object.keys(hosts).sort());
    for (const [id, preset] of Object.entries(OAUTH2_PRESETS)) {
      const url = preset
        .flow(
          configured.find((c) => c.id === id)!,
          'https://app.test/auth/callback/x',
        )
        .authorizationUrl('st', preset.pkce ? 'v'.repeat(43) : null, preset.scopes);
      expect(url.host, id).toBe(hosts[id]);
      expect(url.searchParams.get('client_id')).toBe('cid');
      expect(url.searchParams.get('redirect_uri')).toBe('https://app.test/auth/callback/x');
      expect(url.searchParams.get('code_challenge_method')).toBe(preset.pkce ? 'S256' : null);
    }
  });
});

describe('third-party provider settings', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '.tmp/config-test' };

  it('offers exactly the providers whose settings are complete, OIDC ones first', () => {
    const config = loadConfig({
      ...base,
      GITHUB_CLIENT_ID: 'gh',
      GITHUB_CLIENT_SECRET: 'ghs',
      TWITTER_CLIENT_ID: 'tw',
      TWITTER_CLIENT_SECRET: 'tws',
      OKTA_CLIENT_ID: 'ok',
      OKTA_CLIENT_SECRET: 'oks',
      OKTA_ISSUER: 'https://dev-1.okta.com/oauth2/default',
      ACTIVE_DIRECTORY_CLIENT_ID: 'ad',
      ACTIVE_DIRECTORY_CLIENT_SECRET: 'ads',
      ACTIVE_DIRECTORY_TENANT_ID: 'contoso.onmicrosoft.com',
    });
    expect(config.auth.oidcProviders.map((p) => [p.id, p.issuer])).toEqual([
      ['okta', 'https://dev-1.okta.com/oauth2/default'],
      ['active-directory', 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0'],
    ]);
    expect(config.auth.oauth2Providers.map((p) => p.id)).toEqual(['github', 'twitter']);
    expect(config.auth.oauth2Providers[0]).toMatchObject({
      webUrl: 'https://github.com',
      apiUrl: 'https://api.github.com',
    });
    expect(loadConfig(base).auth.oauth2Providers).toEqual([]);
  });

  it('names every missing companion setting of a provider', () => {
    let message = '';
    try {
      loadConfig({ ...base, APPLE_CLIENT_ID: 'com.lumina.web', OKTA_CLIENT_ID: 'x', GITHUB_CLIENT_ID: 'y' });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const key of ['APPLE_TEAM_ID', 'APPLE_KEY_ID', 'APPLE_PRIVATE_KEY']) {
      expect(message).toContain(`${key}: is required when APPLE_CLIENT_ID is set`);
    }
    expect(message).toContain('OKTA_ISSUER: is required when OKTA_CLIENT_ID is set');
    expect(message).toContain('GITHUB_CLIENT_SECRET: is required when GITHUB_CLIENT_ID is set');
  });

  it("signs Apple's client secret as an ES256 JWT from the team for the Services ID", async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const config = loadConfig({
      ...base,
      APPLE_CLIENT_ID: 'com.lumina.web',
      APPLE_TEAM_ID: 'TEAM123456',
      APPLE_KEY_ID: 'KEY1234567',
      APPLE_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
    });
    const apple = config.auth.oidcProviders.find((p) => p.id === 'apple')!;
    expect(apple).toMatchObject({
      issuer: 'https://appleid.apple.com',
      pkce: false,
      authParams: { response_mode: 'form_post' },
    });
    const secret = await appleClientSecret(apple.clientId, apple.appleKey!);
    const jwks = createLocalJWKSet({
      keys: [{ ...(await exportJWK(publicKey)), kid: 'KEY1234567', alg: 'ES256' }],
    });
    const { payload, protectedHeader } = await jwtVerify(secret, jwks, {
      issuer: 'TEAM123456',
      audience: 'https://appleid.apple.com',
      subject: 'com.lumina.web',
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: 'KEY1234567' });
    expect(payload.exp! - payload.iat!).toBe(300);
  });
});
