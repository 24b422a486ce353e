import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { allowedDomainsError, emailDomainOf } from './claims.ts';
import { getUser, signIn, uniqueEmail } from './auth.test-helpers.ts';

/** An address no other test uses, at `domain`. */
const at = (domain: string, name: string) => uniqueEmail(name).replace('@example.test', `@${domain}`);

const PRODUCT_ROUTES = ['/api/user', '/api/user/second-factors', '/api/credits/history', '/api/transactions'];

describe(`tenant allowed domains (st-t-dmns) on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      TENANTS_JSON: JSON.stringify({
        acme: { firstFactors: ['otp-email'], allowedDomains: ['Acme.com', 'acme.co.uk'] },
        open: { firstFactors: ['otp-email'] },
        rf: { firstFactors: ['otp-email'], allowedDomains: ['XN--E1AFMKFD.xn--p1ai'] },
      }),
    },
  });

  const get = (url: string, accessToken: string) =>
    env.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${accessToken}` } });

  it('gives a person of an allowed domain (any letter case) the claim in SuperTokens shape, and every product route', async () => {
    const address = at('ACME.com', 'allowed');
    const person = await signIn(env, address, { tenant: 'acme' });
    expect(person.frontToken.up['st-t-dmns']).toEqual({
      v: ['acme.com', 'acme.co.uk'],
      t: expect.any(Number),
    });
    expect(person.frontToken.up['lumina-email-domain']).toBe('acme.com');
    for (const url of PRODUCT_ROUTES) {
      const res = await get(url, person.accessToken);
      expect(res.statusCode, url).toBe(200);
    }
    expect((await getUser(env.app, person.accessToken)).json()).toMatchObject({ id: person.userId });
  });

  it('signs in a person of another domain, whose every product route then answers 403 st-t-dmns', async () => {
    const address = at('other.com', 'denied');
    const person = await signIn(env, address, { tenant: 'acme' });
    expect(person.frontToken.up['lumina-email-domain']).toBe('other.com');
    for (const url of PRODUCT_ROUTES) {
      const res = await get(url, person.accessToken);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toMatchObject({
        code: 'FORBIDDEN',
        message: 'invalid claim',
        detail: expect.stringContaining('email addresses of its own domains'),
        claimValidationErrors: [
          {
            id: 'st-t-dmns',
            reason: {
              message: 'wrong value',
              expectedToInclude: 'other.com',
              actualValue: ['acme.com', 'acme.co.uk'],
            },
          },
        ],
      });
    }
    // Nothing of the person is shown, not even their own profile.
    expect(JSON.stringify((await getUser(env.app, person.accessToken)).json())).not.toContain(address);
  });

  it('admits an internationalised domain however the settings and the person spell it', async () => {
    const person = await signIn(env, at('ПРИМЕР.рф', 'idn'), { tenant: 'rf' });
    expect(person.frontToken.up['st-t-dmns']).toMatchObject({ v: ['пример.рф'] });
    expect(person.frontToken.up['lumina-email-domain']).toBe('пример.рф');
    expect((await getUser(env.app, person.accessToken)).statusCode).toBe(200);
  });

  it('matches domains exactly: a subdomain of an allowed domain is refused', async () => {
    const person = await signIn(env, at('eng.acme.com', 'subdomain'), { tenant: 'acme' });
    const res = await getUser(env.app, person.accessToken);
    expect(res.statusCode).toBe(403);
    expect(res.json().claimValidationErrors[0].reason.expectedToInclude).toBe('eng.acme.com');
  });

  it('leaves the FDI routes a denied session needs working: sign-out and the MFA info', async () => {
    const person = await signIn(env, at('other.com', 'signout'), { tenant: 'acme' });
    const headers = { authorization: `Bearer ${person.accessToken}`, 'st-auth-mode': 'header' };
    const info = await env.app.inject({
      method: 'PUT',
      url: '/auth/mfa/info',
      headers: {
        ...headers,
        rid: 'multifactorauth',
        'fdi-version': '4.1',
        'content-type': 'application/json',
      },
      payload: {},
    });
    expect(info.statusCode).toBe(200);
    const out = await env.app.inject({
      method: 'POST',
      url: '/auth/signout',
      headers: { ...headers, rid: 'session', 'fdi-version': '4.1' },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ status: 'OK' });
    expect((await getUser(env.app, person.accessToken)).statusCode).toBe(401);
  });

  it('does not touch the public tenant or a tenant without allowedDomains: any domain passes, no claim is added', async () => {
    for (const tenant of ['public', 'open']) {
      const person = await signIn(env, at('other.com', `free-${tenant}`), { tenant });
      expect(person.frontToken.up['st-t-dmns']).toBeUndefined();
      expect(person.frontToken.up['lumina-email-domain']).toBeUndefined();
      for (const url of PRODUCT_ROUTES)
        expect((await get(url, person.accessToken)).statusCode, url).toBe(200);
    }
  });

  it('keeps one person apart from another across tenants: the same address is refused in acme and admitted in public', async () => {
    const address = at('other.com', 'both');
    const inAcme = await signIn(env, address, { tenant: 'acme' });
    const inPublic = await signIn(env, address);
    expect(inPublic.userId).toBe(inAcme.userId);
    expect((await getUser(env.app, inAcme.accessToken)).statusCode).toBe(403);
    expect((await getUser(env.app, inPublic.accessToken)).statusCode).toBe(200);
  });

  it('refuses a restricted tenant session whose token lacks the claim (a session from before the restriction)', () => {
    const auth = env.container.config.auth;
    const payload = {
      tId: 'acme',
      sub: 'u',
      rsub: 'u',
      sessionHandle: 'h',
      iat: 0,
      exp: 0,
      antiCsrfToken: null,
      iss: '',
    };
    expect(allowedDomainsError(auth, payload)).toEqual({
      id: 'st-t-dmns',
      reason: { message: 'value does not exist', expectedToInclude: null, actualValue: undefined },
    });
    expect(allowedDomainsError(auth, { ...payload, tId: 'public' })).toBeUndefined();
    // No verified address (a phone sign-in, an unverified provider address): nothing proves the domain.
    expect(
      allowedDomainsError(auth, {
        ...payload,
        'st-t-dmns': { v: ['acme.com'], t: 1 },
        'lumina-email-domain': null,
      }),
    ).toMatchObject({ reason: { message: 'wrong value', expectedToInclude: null } });
  });
});

describe('allowedDomains settings', () => {
  const base = { NODE_ENV: 'test' } as const;
  const problem = (tenants: unknown) => {
    try {
      loadConfig({ ...base, TENANTS_JSON: JSON.stringify(tenants) });
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('are validated at start-up, naming TENANTS_JSON', () => {
    expect(problem({ acme: { allowedDomains: ['acme.com'] } })).toBeUndefined();
    for (const bad of [['@acme.com'], ['*.acme.com'], ['acme'], ['http://acme.com'], [], ['a b.com']]) {
      expect(problem({ acme: { allowedDomains: bad } }), JSON.stringify(bad)).toMatch(/TENANTS_JSON/);
    }
  });

  it('are stored lowercase and trimmed', () => {
    const config = loadConfig({ ...base, TENANTS_JSON: '{"acme":{"allowedDomains":[" ACME.com "]}}' });
    expect(config.auth.tenants.acme?.allowedDomains).toEqual(['acme.com']);
  });

  it('take an internationalised domain in either spelling, in the form addresses are stored, and refuse a mixed-script one', () => {
    const config = loadConfig({
      ...base,
      TENANTS_JSON: JSON.stringify({ rf: { allowedDomains: ['XN--E1AFMKFD.xn--p1ai', 'пример.com'] } }),
    });
    expect(config.auth.tenants.rf?.allowedDomains).toEqual(['пример.рф', 'пример.com']);
    expect(problem({ acme: { allowedDomains: ['\u0430cme.com'] } })).toMatch(/TENANTS_JSON/);
  });

  it('email domains are the part after the last @, lowercase', () => {
    expect(emailDomainOf('A@B@Example.COM')).toBe('example.com');
    expect(emailDomainOf('nobody')).toBeNull();
    expect(emailDomainOf(null)).toBeNull();
  });
});
