import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
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
      'STRIPE_SECRET_KEY: is required when NODE_ENV=production (the development checkout is refused there)',
      'FILE_URL_SECRET: is required when NODE_ENV=production',
    ]);
    const short = problemsOf({ FILE_URL_SECRET: 'tooshort-but-secret' });
    expect(short[0]).toMatch(/^FILE_URL_SECRET: must be at least 32 characters$/);
    expect(short.join()).not.toContain('tooshort-but-secret');
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

describe('.env.example', () => {
  it('lists every setting the server reads, and nothing else', () => {
    const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    const listed = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]).sort();
    const read = Object.keys(EnvSchema.shape).sort();
    expect(listed).toEqual(read);
  });
});
