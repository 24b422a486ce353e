import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { followAuthorisation, readBody, redirectWithCode, startFakeServer } from './http.ts';

/** The GitHub account the fake signs in next, with its email list (as `GET /user/emails` returns it). */
export interface FakeGitHubUser {
  id: number;
  login: string;
  /** The public profile email (often null on GitHub). */
  email: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean; visibility?: string | null }>;
}

/**
 * A small fake of GitHub's OAuth app flow on 127.0.0.1: `GET /login/oauth/authorize` (approves at once,
 * back to the redirect URI with a code), `POST /login/oauth/access_token` (Basic client credentials,
 * redirect URI and PKCE S256 checked; JSON when asked for), and the API's `GET /user` and
 * `GET /user/emails` (bearer token, a User-Agent required, as on GitHub). One server plays both
 * github.com and api.github.com: point GITHUB_URL and GITHUB_API_URL at `url` and `apiUrl`.
 */
export async function startFakeGitHub(options: { clientId: string; clientSecret: string }) {
  const codes = new Map<string, { redirectUri: string; codeChallenge?: string; user: FakeGitHubUser }>();
  const tokens = new Map<string, FakeGitHubUser>();
  const state = {
    nextUser: {
      id: 4242,
      login: 'octo-person',
      email: null,
      emails: [
        { email: 'old@example.test', primary: false, verified: true },
        { email: 'Octo.Person@Example.test', primary: true, verified: true },
      ],
    } as FakeGitHubUser,
    requests: [] as Array<{ method: string; path: string; headers: IncomingMessage['headers'] }>,
  };

  const server = await startFakeServer(handle);
  const url = server.url;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? '/', url);
    state.requests.push({ method: req.method ?? 'GET', path: u.pathname, headers: req.headers });
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

    if (u.pathname === '/login/oauth/authorize' && req.method === 'GET') {
      const q = u.searchParams;
      if (q.get('client_id') !== options.clientId) return json(404, { error: 'not found' });
      const code = randomBytes(10).toString('hex');
      codes.set(code, {
        redirectUri: q.get('redirect_uri')!,
        codeChallenge: q.get('code_challenge') ?? undefined,
        user: structuredClone(state.nextUser),
      });
      return redirectWithCode(res, q, code);
    }
    if (u.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      const body = Object.fromEntries(new URLSearchParams(await readBody(req)));
      const [id, secret] = req.headers.authorization?.startsWith('Basic ')
        ? Buffer.from(req.headers.authorization.slice(6), 'base64')
            .toString()
            .split(':')
            .map(decodeURIComponent)
        : [body.client_id, body.client_secret];
      // GitHub answers errors with 200 and an `error` field.
      if (id !== options.clientId || secret !== options.clientSecret)
        return json(200, { error: 'incorrect_client_credentials' });
      const pending = body.code ? codes.get(body.code) : undefined;
      if (!pending) return json(200, { error: 'bad_verification_code' });
      codes.delete(body.code!);
      if (body.redirect_uri && body.redirect_uri !== pending.redirectUri)
        return json(200, { error: 'redirect_uri_mismatch' });
      if (pending.codeChallenge) {
        const computed = body.code_verifier
          ? createHash('sha256').update(body.code_verifier).digest('base64url')
          : '';
        if (computed !== pending.codeChallenge) return json(200, { error: 'bad_verification_code' });
      }
      const token = `gho_${randomBytes(16).toString('hex')}`;
      tokens.set(token, pending.user);
      if (!(req.headers.accept ?? '').includes('application/json')) {
        return res
          .writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' })
          .end(`access_token=${token}&token_type=bearer`);
      }
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    if (u.pathname === '/user' || u.pathname === '/user/emails') {
      if (!req.headers['user-agent'])
        return json(403, { message: 'Request forbidden by administrative rules.' });
      const user = tokens.get(req.headers.authorization?.replace(/^Bearer /, '') ?? '');
      if (!user) return json(401, { message: 'Bad credentials' });
      if (u.pathname === '/user') return json(200, { id: user.id, login: user.login, email: user.email });
      return json(200, user.emails);
    }
    return json(404, { message: 'Not Found' });
  }

  return {
    url,
    apiUrl: url,
    /** The settings that send the server's GitHub sign-in here. */
    env: {
      GITHUB_CLIENT_ID: options.clientId,
      GITHUB_CLIENT_SECRET: options.clientSecret,
      GITHUB_URL: url,
      GITHUB_API_URL: url,
    },
    state,
    /** Follows an authorisation URL like a browser would and returns the callback URL's query. */
    authorise: followAuthorisation,
    close: server.close,
  };
}
