/**
 * Runs the fake SAML identity provider as its own process for the browser tests (playwright.config.ts):
 * `node --import tsx apps/server/test/fakes/saml-idp.cli.ts --port 3106 --cert-file .tmp/saml-idp.pem`.
 * Its signing certificate is made at start and written to `--cert-file` (the app server's
 * SAML_IDP_CERT_FILE) before it listens. Every AuthnRequest is answered at once for the current test
 * user (`POST /_test/next-user` changes it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeSamlIdp } from './saml-idp.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3106' },
    'cert-file': { type: 'string', default: '.tmp/saml-idp.pem' },
  },
});

const idp = await startFakeSamlIdp({
  port: Number(values.port),
  user: { nameId: 'e2e-saml@example.com' },
});
mkdirSync(dirname(values['cert-file']), { recursive: true });
writeFileSync(values['cert-file'], idp.cert);
console.log(`fake SAML IdP at ${idp.ssoUrl} (entity ${idp.entityId})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
