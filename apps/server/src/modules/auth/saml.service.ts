import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { Clock } from '../../clock.ts';
import type { SamlProviderConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';
import { randomToken, sha256Hex } from './auth.crypto.ts';
import { unstorableText } from './fdi.input.ts';
import type { ExchangeResult } from './thirdparty.service.ts';
import {
  findSamlRequest,
  insertSamlCode,
  insertSamlRequest,
  takeSamlCode,
  takeSamlRequest,
} from './saml.repository.ts';

/** How long an AuthnRequest waits for its response (the web SDK keeps its own state for as long). */
const REQUEST_LIFETIME_MS = 10 * 60_000;
/** How long the one-time code from the assertion consumer service lives. */
const CODE_LIFETIME_MS = 2 * 60_000;
/** Clock difference between the IdP and us that NotBefore / NotOnOrAfter tolerate. */
const CLOCK_SKEW_MS = 60_000;

const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** Where IdPs put the address: `email`, `mail`, the LDAP OID, and the WS-Federation claim (Entra ID, AD FS). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];

export type SamlAcsResult =
  | { ok: true; location: string }
  /** Refused; `location` sends the browser back to the web callback page with an `error`, when known. */
  | { ok: false; reason: string; location?: string };

/**
 * Lumina as a SAML 2.0 service provider (one IdP per deployment), built on @node-saml/node-saml: the
 * AuthnRequest (HTTP-Redirect binding, signed when we have a key), and the response's XML signature,
 * conditions, audience, issuer and InResponseTo checked by the library. Sign-ins fit the web SDK's
 * third-party flow: `authorisationUrl` points at our `/auth/saml/login`, which remembers the SDK's
 * `state` and sends the browser to the IdP; the IdP posts to `/auth/saml/acs`; a good response becomes a
 * one-time code on the web callback page, which `POST /auth/signinup` exchanges for the profile.
 */
export class SamlSignIn {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    readonly settings: SamlProviderConfig,
    private readonly loginUrl: string,
    private readonly log: Logger,
  ) {}

  get id(): string {
    return this.settings.id;
  }

  get(id: string): { id: string; name: string } | undefined {
    return id === this.settings.id ? { id, name: this.settings.name } : undefined;
  }

  /** The URL the SDK sends the browser to (it appends its `state`). */
  authorisationUrl(tenantId: string, redirectUri: string): string {
    const url = new URL(this.loginUrl);
    url.searchParams.set('tenantId', tenantId);
    url.searchParams.set('redirectURI', redirectUri);
    return url.toString();
  }

  /** One SAML object per use: `requestId` names the AuthnRequest, `cache` answers InResponseTo. */
  private saml(options: { requestId?: string; cache?: CacheProvider } = {}): SAML {
    const s = this.settings;
    const noCache: CacheProvider = {
      saveAsync: async () => null,
      getAsync: async () => null,
      removeAsync: async () => null,
    };
    return new SAML({
      entryPoint: s.entryPoint,
      idpCert: s.idpCert,
      idpIssuer: s.idpIssuer,
      issuer: s.spEntityId,
      audience: s.spEntityId,
      callbackUrl: s.acsUrl,
      wantAssertionsSigned: true,
      // The assertion (what says who the person is) must be signed; many IdPs sign only that.
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
      cacheProvider: options.cache ?? noCache,
      generateUniqueId: () => options.requestId ?? `_${randomBytes(20).toString('hex')}`,
      ...(s.spSigning
        ? { privateKey: s.spSigning.privateKey, publicCert: s.spSigning.cert, signatureAlgorithm: 'sha256' }
        : {}),
    });
  }

  /** Our SP metadata (entity id, ACS, and our signing certificate when there is one). */
  metadata(): string {
    return this.saml().generateServiceProviderMetadata(null, this.settings.spSigning?.cert ?? null);
  }

  /** Starts a sign-in: remembers the request and returns the IdP's URL (SAMLRequest + RelayState). */
  async start(input: { tenantId: string; redirectUri: string; state: string }): Promise<string> {
    const id = `_${randomBytes(20).toString('hex')}`;
    const now = this.clock.now();
    await insertSamlRequest(this.db, {
      id,
      tenantId: input.tenantId,
      redirectUri: input.redirectUri,
      state: input.state,
      createdAt: new Date(now),
      expiresAt: new Date(now + REQUEST_LIFETIME_MS),
    });
    return this.saml({ requestId: id }).getAuthorizeUrlAsync(id, undefined, {});
  }

  /**
   * The assertion consumer service: checks the IdP's response to the request named by RelayState,
   * spends that request, and hands back where the browser goes (the web callback page with a code).
   */
  async consume(form: { SAMLResponse?: string; RelayState?: string }): Promise<SamlAcsResult> {
    const now = this.clock.now();
    const request = form.RelayState
      ? await findSamlRequest(this.db, form.RelayState, new Date(now))
      : undefined;
    if (!request) return { ok: false, reason: 'unknown, answered or expired sign-in request' };
    const back = (params: Record<string, string>) => {
      const url = new URL(request.redirectUri);
      for (const [k, v] of Object.entries({ ...params, state: request.state })) url.searchParams.set(k, v);
      return url.toString();
    };
    const refuse = (reason: string): SamlAcsResult => {
      this.log.warn({ reason, provider: this.id }, 'SAML response refused');
      return {
        ok: false,
        reason,
        location: back({ error: 'access_denied', error_description: 'The sign-in response was refused.' }),
      };
    };
    if (!form.SAMLResponse) return refuse('no SAMLResponse');
    // InResponseTo must name this very request (and it must still be waiting).
    const cache: CacheProvider = {
      saveAsync: async () => null,
      getAsync: async (key) => (key === request.id ? request.createdAt.toISOString() : null),
      removeAsync: async () => null,
    };
    let profile: Profile | null;
    try {
      ({ profile } = await this.saml({ cache }).validatePostResponseAsync({
        SAMLResponse: form.SAMLResponse,
      }));
    } catch (err) {
      return refuse(err instanceof Error ? err.message : String(err));
    }
    if (!profile || profile.inResponseTo !== request.id) return refuse('response to another request');
    // node-saml checks the issuer of logout messages only; the (signed) assertion's is checked here.
    if (this.settings.idpIssuer && profile.issuer !== this.settings.idpIssuer) {
      return refuse(`assertion from another issuer (${String(profile.issuer).slice(0, 200)})`);
    }
    if (!profile.nameID || profile.nameIDFormat === TRANSIENT) {
      return refuse('no persistent NameID (a transient one names nobody twice)');
    }
    if (profile.nameID.length > 1024) return refuse('NameID longer than 1024 characters');
    // A signature proves who wrote the text, not that we can store it: refused before the request is
    // spent, so the person's next answer to it can still sign them in.
    const unstorable = unstorableFields(profile);
    if (unstorable) return refuse(unstorable);
    const code = randomToken();
    // Single use: the first good response spends the request; a replay finds nothing. Spent and turned
    // into a code in one transaction, so a code that cannot be stored leaves the request waiting.
    const spent = await this.db.transaction(async (tx) => {
      if (!(await takeSamlRequest(tx, request.id, new Date(now)))) return false;
      await insertSamlCode(
        tx,
        {
          codeHash: sha256Hex(code),
          tenantId: request.tenantId,
          redirectUri: request.redirectUri,
          nameId: profile.nameID,
          email: emailOf(profile),
          emailVerified: this.settings.emailVerified,
          expiresAt: new Date(now + CODE_LIFETIME_MS),
        },
        new Date(now),
      );
      return true;
    });
    if (!spent) return { ok: false, reason: 'the sign-in request was already answered' };
    return { ok: true, location: back({ code }) };
  }

  /** Spends a one-time code from the callback page: the profile, when it is this tenant's and page's. */
  async exchange(tenantId: string, input: { redirectUri: string; code: string }): Promise<ExchangeResult> {
    const row = await takeSamlCode(this.db, sha256Hex(input.code), tenantId, new Date(this.clock.now()));
    if (!row) return { ok: false, reason: 'unknown, used or expired code' };
    if (row.redirectUri !== input.redirectUri) return { ok: false, reason: 'code for another callback page' };
    return {
      ok: true,
      profile: { userId: row.nameId, email: row.email ?? undefined, emailVerified: row.emailVerified },
    };
  }
}

/** Why the NameID or an address attribute cannot be stored (a NUL, a lone surrogate), if one cannot. */
function unstorableFields(profile: Profile): string | undefined {
  const fields: Array<[string, unknown]> = [
    ['NameID', profile.nameID],
    ...EMAIL_ATTRIBUTES.map((name): [string, unknown] => [`attribute ${name}`, profile[name]]),
  ];
  for (const [field, value] of fields) {
    for (const text of [value].flat()) {
      const problem = typeof text === 'string' ? unstorableText(text) : undefined;
      if (problem) return `${field} ${problem}`;
    }
  }
  return undefined;
}

/** The person's address: an email attribute, else an emailAddress-format NameID; lower-cased. */
function emailOf(profile: Profile): string | null {
  const candidates = [
    ...EMAIL_ATTRIBUTES.map((name) => profile[name]),
    profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID : undefined,
  ];
  for (const candidate of candidates) {
    const value = Array.isArray(candidate) ? candidate[0] : candidate;
    if (typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value.trim()) && value.length <= 254) {
      return value.trim().toLowerCase();
    }
  }
  return null;
}
