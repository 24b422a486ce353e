import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, tempDir, testDb, type TestEnv } from '../../../test/harness.ts';
import { loadConfig } from '../../config.ts';
import { loadLegalTexts } from './site.routes.ts';

describe(`legal pages on ${testDb}`, () => {
  let env: TestEnv;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir();
    writeFileSync(path.join(dir, 'terms.md'), '# Our Terms\n\nBe kind. <script>alert(1)</script>\n');
    env = await startTestEnv({ workers: false, env: { TERMS_FILE: path.join(dir, 'terms.md') } });
  });
  afterAll(() => env.close());

  it("serves the operator's Terms of Service file as given, publicly", async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/legal/terms' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      page: 'terms',
      markdown: '# Our Terms\n\nBe kind. <script>alert(1)</script>\n',
      is_default: false,
    });
  });

  it('serves a default Privacy Policy naming this site when none is configured', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/legal/privacy' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.is_default).toBe(true);
    expect(body.markdown).toMatch(/^# Privacy Policy/);
    expect(body.markdown).toContain(new URL(env.config.publicUrl).host);
    expect(body.markdown).not.toContain('{{site}}');
  });

  it('refuses an unknown page with a readable 400', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/legal/cookies' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/terms or privacy/);
  });

  it('stops start-up naming the setting when a configured file cannot be read', () => {
    const config = loadConfig({ PRIVACY_FILE: path.join(dir, 'missing.md'), DATA_DIR: dir });
    expect(() => loadLegalTexts(config)).toThrow(/PRIVACY_FILE .*missing\.md.* cannot be read/);
  });
});
