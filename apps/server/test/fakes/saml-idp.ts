import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';
import { readBody, startFakeServer } from './http.ts';

/** Who the fake IdP signs in next (what a person would do on the IdP's login page). */
export interface FakeSamlUser {
  nameId: string;
  /** NameID Format; emailAddress unless set. */
  nameIdFormat?: string;
  /** Sent as the `email` attribute when set. */
  email?: string;
}

/** Ways to make the next response wrong, for the refusal tests. */
export interface FakeSamlTweaks {
  audience?: string;
  issuer?: string;
  /** The Response's and the SubjectConfirmationData's InResponseTo (default: the request's ID). */
  inResponseTo?: string;
  /** Assertion validity window (default: from a minute ago to five minutes on). */
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** Sign the assertion / the whole response (both by default). */
  signAssertion?: boolean;
  signResponse?: boolean;
  /** Sign with a key the SP does not know. */
  signWithImpostorKey?: boolean;
  /** Change the signed XML afterwards (a forged attribute). */
  tamper?: (xml: string) => string;
  /** SAML status other than Success (the person refused, or the IdP failed). */
  statusCode?: string;
}

/** What the fake read from an AuthnRequest (HTTP-Redirect binding). */
export interface FakeSamlRequest {
  id: string;
  acsUrl: string;
  issuer: string;
  relayState: string;
  signed: boolean;
  xml: string;
}

const NS_P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const NS_A = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

const esc = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function testCertificate(name: string) {
  const pems = await generate([{ name: 'commonName', value: name }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 24 * 3600_000),
  });
  return { privateKey: pems.private, cert: pems.cert };
}

function sign(xml: string, key: { privateKey: string; cert: string }, what: 'Assertion' | 'Response') {
  const sig = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const target = what === 'Assertion' ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  sig.addReference({
    xpath: target,
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

/**
 * A small, real SAML 2.0 identity provider on 127.0.0.1 for tests: `GET /sso` takes an AuthnRequest in
 * the HTTP-Redirect binding (deflated, base64) and answers with the HTTP-POST binding, a page whose form
 * posts a Response to the request's AssertionConsumerServiceURL, the assertion and the response signed
 * (XML-DSig, RSA-SHA256, exclusive c14n) with a certificate made when it starts. `tweaks` make the next
 * responses wrong in one way for the refusal tests.
 */
export async function startFakeSamlIdp(
  options: {
    port?: number;
    user?: FakeSamlUser;
  } = {},
) {
  const [key, impostor] = await Promise.all([testCertificate('Fake SAML IdP'), testCertificate('Impostor')]);
  const state = {
    nextUser: options.user ?? ({ nameId: 'person@example.test' } as FakeSamlUser),
    tweaks: {} as FakeSamlTweaks,
    /** Tweaks for the next response only (`POST /_test/next-tweaks`, JSON fields of FakeSamlTweaks). */
    onceTweaks: undefined as FakeSamlTweaks | undefined,
    requests: [] as FakeSamlRequest[],
  };
  const server = await startFakeServer(handle, options.port);
  const entityId = `${server.url}/metadata`;

  function readRequest(url: URL): FakeSamlRequest {
    const encoded = url.searchParams.get('SAMLRequest');
    if (!encoded) throw new Error('no SAMLRequest');
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
    return {
      id: attr('ID'),
      acsUrl: attr('AssertionConsumerServiceURL'),
      issuer: /<(?:saml:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '',
      relayState: url.searchParams.get('RelayState') ?? '',
      signed: url.searchParams.has('Signature'),
      xml,
    };
  }

  /** The base64 Response the IdP would post for `request`, signed for `user`, as `tweaks` bend it. */
  function buildResponse(
    request: { id: string; acsUrl: string; issuer: string },
    user: FakeSamlUser,
    tweaks: FakeSamlTweaks = {},
  ): string {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const inResponseTo = tweaks.inResponseTo ?? request.id;
    const notBefore = iso(tweaks.notBefore?.getTime() ?? now - 60_000);
    const notOnOrAfter = iso(tweaks.notOnOrAfter?.getTime() ?? now + 5 * 60_000);
    const issuer = esc(tweaks.issuer ?? entityId);
    const status = tweaks.statusCode ?? 'urn:oasis:names:tc:SAML:2.0:status:Success';
    const attributes = user.email
      ? `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${esc(user.email)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
      : '';
    const assertion = status.endsWith(':Success')
      ? `<saml:Assertion xmlns:saml="${NS_A}" ID="_a${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}">` +
        `<saml:Issuer>${issuer}</saml:Issuer>` +
        `<saml:Subject><saml:NameID Format="${esc(user.nameIdFormat ?? EMAIL_FORMAT)}">${esc(user.nameId)}</saml:NameID>` +
        `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
        `<saml:SubjectConfirmationData InResponseTo="${esc(inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${esc(request.acsUrl)}"/>` +
        `</saml:SubjectConfirmation></saml:Subject>` +
        `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
        `<saml:AudienceRestriction><saml:Audience>${esc(tweaks.audience ?? request.issuer)}</saml:Audience></saml:AudienceRestriction>` +
        `</saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s${randomBytes(8).toString('hex')}">` +
        `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
        `</saml:AuthnStatement>${attributes}</saml:Assertion>`
      : '';
    let xml =
      `<samlp:Response xmlns:samlp="${NS_P}" xmlns:saml="${NS_A}" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(request.acsUrl)}" InResponseTo="${esc(inResponseTo)}">` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="${esc(status)}"/></samlp:Status>${assertion}</samlp:Response>`;
    const signer = tweaks.signWithImpostorKey ? impostor : key;
    if (assertion && tweaks.signAssertion !== false) xml = sign(xml, signer, 'Assertion');
    if (tweaks.signResponse !== false) xml = sign(xml, signer, 'Response');
    if (tweaks.tamper) xml = tweaks.tamper(xml);
    return Buffer.from(xml, 'utf8').toString('base64');
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', server.url);
    // Test control (not SAML): choose who the next sign-in is, as a person would on the login page.
    if (url.pathname === '/_test/next-user' && req.method === 'POST') {
      state.nextUser = JSON.parse(await readBody(req)) as FakeSamlUser;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.nextUser));
      return;
    }
    if (url.pathname === '/_test/next-tweaks' && req.method === 'POST') {
      state.onceTweaks = JSON.parse(await readBody(req)) as FakeSamlTweaks;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.onceTweaks));
      return;
    }
    if (url.pathname === '/metadata') {
      const certBody = key.cert.replace(/-----[A-Z ]+-----|\s/g, '');
      res
        .writeHead(200, { 'content-type': 'application/samlmetadata+xml' })
        .end(
          `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${esc(entityId)}">` +
            `<md:IDPSSODescriptor protocolSupportEnumeration="${NS_P}">` +
            `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
            `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(`${server.url}/sso`)}"/>` +
            `</md:IDPSSODescriptor></md:EntityDescriptor>`,
        );
      return;
    }
    if (url.pathname !== '/sso' || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    let request: FakeSamlRequest;
    try {
      request = readRequest(url);
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
      return;
    }
    state.requests.push(request);
    const tweaks = state.onceTweaks ?? state.tweaks;
    state.onceTweaks = undefined;
    const response = buildResponse(request, state.nextUser, tweaks);
    // The HTTP-POST binding: a page that posts the response to the SP at once.
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><body onload="document.forms[0].submit()">` +
          `<form method="post" action="${esc(request.acsUrl)}">` +
          `<input type="hidden" name="SAMLResponse" value="${esc(response)}">` +
          `<input type="hidden" name="RelayState" value="${esc(request.relayState)}">` +
          `<noscript><button type="submit">Continue</button></noscript></form></body></html>`,
      );
  }

  return {
    url: server.url,
    ssoUrl: `${server.url}/sso`,
    entityId,
    /** The IdP's signing certificate (PEM), for SAML_IDP_CERT. */
    cert: key.cert,
    state,
    buildResponse,
    /**
     * The browser's part at the IdP: opens the SSO URL our server redirected to and reads the form the
     * page would post (ACS address, SAMLResponse, RelayState).
     */
    async respond(idpUrl: string) {
      const res = await fetch(idpUrl);
      const html = await res.text();
      if (res.status !== 200) throw new Error(`IdP answered ${res.status}: ${html}`);
      const field = (name: string) =>
        (new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '').replace(/&amp;/g, '&');
      return {
        acsUrl: /action="([^"]*)"/.exec(html)![1]!.replace(/&amp;/g, '&'),
        form: { SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') },
        request: state.requests.at(-1)!,
      };
    },
    /** SAML_* settings for our server that trust this IdP. */
    envFor(): Record<string, string> {
      return {
        SAML_IDP_ENTRY_POINT: `${server.url}/sso`,
        SAML_IDP_CERT: key.cert,
        SAML_IDP_ISSUER: entityId,
      };
    },
    close: server.close,
  };
}

export type FakeSamlIdp = Awaited<ReturnType<typeof startFakeSamlIdp>>;
