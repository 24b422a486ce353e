import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EnvSchema, loadConfig } from './config.ts';
import { problemsOf } from './config.test-helpers.ts';

describe('configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.env).toBe('development');
    expect(config.roles).toEqual(['api', 'worker']);
    expect(config.database.url).toBeUndefined();
    expect(config.database.embeddedDir).toMatch(/data[/\\]pglite$/);
    expect(config.s3).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names a bad PORT and shows the value given', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual([expect.stringMatching(/^PORT: .*\(got "abc"\)$/)]);
    expect(problemsOf({ PORT: '70000' })[0]).toMatch(/^PORT: /);
  });

  it('lists every problem at once', () => {
    const problems = problemsOf({ PORT: 'x', LOG_LEVEL: 'loud', ROLES: 'api,cook' });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['LOG_LEVEL', 'PORT', 'ROLES.1']);
  });

  it('keeps the shutdown linger within the shutdown timeout', () => {
    expect(loadConfig({}).shutdownLingerMs).toBe(2000);
    expect(problemsOf({ SHUTDOWN_TIMEOUT_MS: '5000', SHUTDOWN_LINGER_MS: '5000' })).toEqual([
      'SHUTDOWN_LINGER_MS: must be less than SHUTDOWN_TIMEOUT_MS (the linger is part of it) (got "5000")',
    ]);
  });

  it('requires the S3 keys once a bucket is configured, without echoing secrets', () => {
    const problems = problemsOf({ S3_BUCKET: 'lumina', S3_SECRET_ACCESS_KEY: '' });
    expect(problems).toEqual([
      'S3_ACCESS_KEY_ID: is required when S3_BUCKET is set',
      'S3_SECRET_ACCESS_KEY: is required when S3_BUCKET is set',
    ]);
    const config = loadConfig({
      S3_BUCKET: 'lumina',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.s3).toMatchObject({ bucket: 'lumina', forcePathStyle: true, region: 'us-east-1' });
  });

  it('refuses production without the file URL secret, and never prints secret values', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'C2PA_SIGNING_CERT: is required when NODE_ENV=production, with C2PA_SIGNING_KEY (the certificate chain and EC P-256 key that sign the content credentials of every output; PEM or a file path)',
      'STRIPE_SECRET_KEY: is required when NODE_ENV=production (the development checkout is refused there)',
      'AUTH_KEYS_ENCRYPTION_KEY: is required when NODE_ENV=production (it encrypts the signing keys in the database; make one with: openssl rand -base64 32)',
      'FILE_URL_SECRET: is required when NODE_ENV=production',
    ]);
    const short = problemsOf({ FILE_URL_SECRET: 'tooshort-but-secret' });
    expect(short[0]).toMatch(/^FILE_URL_SECRET: must be at least 32 characters$/);
    expect(short.join()).not.toContain('tooshort-but-secret');
  });

  it('takes the C2PA signing certificate and key as PEM or a file path, checks them, and never echoes the key', async () => {
    const { developmentCredentials } = await import('./adapters/c2pa/c2pa.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'lumina-c2pa-config-'));
    try {
      const creds = await developmentCredentials(dir);
      const keyFile = path.join(dir, 'key.pem');
      writeFileSync(keyFile, creds.privateKeyPem);
      const config = loadConfig({
        C2PA_SIGNING_CERT: creds.certificatePem.replace(/\n/g, '\\n'),
        C2PA_SIGNING_KEY: keyFile,
      });
      expect(config.c2pa).toEqual({
        certificatePem: creds.certificatePem.trim() + '\n',
        privateKeyPem: creds.privateKeyPem,
      });
      expect(problemsOf({ C2PA_SIGNING_CERT: creds.certificatePem })).toEqual([
        'C2PA_SIGNING_KEY: is required when C2PA_SIGNING_CERT is set',
      ]);
      const wrong = problemsOf({
        C2PA_SIGNING_CERT: '/no/such/file.pem',
        C2PA_SIGNING_KEY: 'secret-not-a-key',
      });
      expect(wrong).toEqual([
        'C2PA_SIGNING_CERT: must be a PEM certificate chain or the path of a file holding one (got "/no/such/file.pem")',
        'C2PA_SIGNING_KEY: must be an EC (P-256) private key in PEM or the path of a file holding one',
      ]);
      expect(wrong.join()).not.toContain('secret-not-a-key');
      // A P-256 key that is not the certificate's, and a key on another curve.
      const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
      const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
      const pem = (k: KeyObject) => k.export({ format: 'pem', type: 'pkcs8' }).toString();
      expect(problemsOf({ C2PA_SIGNING_CERT: creds.certificatePem, C2PA_SIGNING_KEY: pem(other) })).toEqual([
        'C2PA_SIGNING_KEY: is not the key of the first (leaf) certificate in C2PA_SIGNING_CERT',
      ]);
      expect(problemsOf({ C2PA_SIGNING_CERT: creds.certificatePem, C2PA_SIGNING_KEY: pem(p384) })).toEqual([
        'C2PA_SIGNING_KEY: must be an EC (P-256) private key in PEM or the path of a file holding one',
      ]);
      expect(loadConfig({}).c2pa).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never echoes the JSON settings that hold client secrets (OAUTH_CLIENTS_JSON, OIDC_PROVIDERS_JSON)', () => {
    const secret = 'a-client-secret-that-must-never-be-printed';
    const oidc = problemsOf({
      OIDC_PROVIDERS_JSON: JSON.stringify([
        { id: 'Bad Id', name: 'Okta', issuer: 'https://okta.example', clientId: 'c', clientSecret: secret },
      ]),
    });
    expect(oidc).toEqual([expect.stringMatching(/^OIDC_PROVIDERS_JSON: invalid provider settings: /)]);
    const clients = problemsOf({
      OAUTH_CLIENTS_JSON: JSON.stringify([{ client_id: 'app', client_secret: secret, redirect_uris: [] }]),
    });
    expect(clients).toEqual([expect.stringMatching(/^OAUTH_CLIENTS_JSON: /)]);
    expect([...oidc, ...clients].join()).not.toContain(secret);
    // Settings without secrets still show the value given, which helps to spot a typo.
    expect(problemsOf({ TENANTS_JSON: '{a' })).toEqual([
      expect.stringMatching(/^TENANTS_JSON: .*\(got "\{a"\)$/),
    ]);
  });

  it('keeps ADMIN_EMAILS in the form sign-in stores addresses, and refuses look-alikes there too', () => {
    expect(
      loadConfig({ ADMIN_EMAILS: ' Ops@Lumina.test, \uff4f\uff50\uff53@\u200bexample.test' }).generation
        .adminEmails,
    ).toEqual(['ops@lumina.test', 'ops@example.test']);
    expect(problemsOf({ ADMIN_EMAILS: 'ops@lumina.test,\u043eps@lumina.test' })).toEqual([
      expect.stringMatching(/^ADMIN_EMAILS: "\u043eps@lumina.test" mixes letters from different alphabets/),
    ]);
  });

  it('treats empty values as unset and parses lists', () => {
    const config = loadConfig({
      DATABASE_URL: '',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      ROLES: 'worker',
    });
    expect(config.database.url).toBeUndefined();
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.roles).toEqual(['worker']);
  });
});

describe('AUTOMATIC1111 and OpenAI settings', () => {
  it('reads them, and never echoes A1111_AUTH back in an error', () => {
    const config = loadConfig({
      A1111_URL: 'http://gpu-box:7861/',
      A1111_AUTH: 'lumina:pass:with:colons',
      OPENAI_API_KEY: 'sk-x',
    });
    expect(config.providers.a1111).toEqual({ url: 'http://gpu-box:7861', auth: 'lumina:pass:with:colons' });
    expect(config.providers.openai).toEqual({ apiKey: 'sk-x', baseUrl: undefined });
    const bad = () => loadConfig({ A1111_AUTH: 'just-a-password' });
    expect(bad).toThrow(/A1111_AUTH: must be user:password/);
    expect(bad).not.toThrow(/just-a-password/);
    const withCredentials = () => loadConfig({ A1111_URL: 'http://lumina:hunter2@gpu-box:7861' });
    expect(withCredentials).toThrow(/A1111_URL: must not contain a user or password; put them in A1111_AUTH/);
    expect(withCredentials).not.toThrow(/hunter2/);
  });
});

describe('.env.example', () => {
  it('lists every setting the server reads, and nothing else', () => {
    const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    const listed = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]).sort();
    const read = Object.keys(EnvSchema.shape).sort();
    expect(listed).toEqual(read);
  });
});
