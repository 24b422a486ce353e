/**
 * Runs the fake OpenID provider as its own process for the browser tests (playwright.config.ts):
 * `node --import tsx apps/server/test/fakes/oidc-provider.cli.ts --port 3102 --client-id x --client-secret y`.
 * Every authorisation is approved at once for the current test user (`POST /_test/next-user` changes it).
 * `--hosted-domains a.test,b.test`: addresses at those Google Workspace domains get the `hd` claim.
 */
import { parseArgs } from 'node:util';
import { startFakeOidcProvider } from './oidc-provider.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3102' },
    'client-id': { type: 'string', default: 'lumina-e2e' },
    'client-secret': { type: 'string', default: 'lumina-e2e-secret' },
    'hosted-domains': { type: 'string', default: '' },
  },
});

const provider = await startFakeOidcProvider({
  port: Number(values.port),
  clientId: values['client-id'],
  clientSecret: values['client-secret'],
  hostedDomains: values['hosted-domains'].split(',').filter(Boolean),
  user: { sub: 'e2e-google-user', email: 'e2e-google@example.com', email_verified: true, name: 'E2E Person' },
});
console.log(`fake OpenID provider at ${provider.issuer}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
