import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/c2pa');

/**
 * A production start needs the operator's C2PA signing certificate and key (config.ts). These are a
 * development chain made once by `developmentCredentials` for tests only (valid until 2031): no real
 * operator's key, never used outside tests. As file paths, the way an operator would mount them.
 */
export const TEST_C2PA_SIGNING = {
  C2PA_SIGNING_CERT: path.join(dir, 'test-signing-chain.pem'),
  C2PA_SIGNING_KEY: path.join(dir, 'test-signing-key.pem'),
};
