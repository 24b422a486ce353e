import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config.ts';
import { problemsOf } from '../../config.test-helpers.ts';
import { CATEGORY_WORDING, DEFAULT_POLICY, SAFETY_CATEGORIES } from './policy.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lumina-safety-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function policyFile(content: unknown): string {
  const file = path.join(dir, `policy-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('the content policy', () => {
  it('refuses every category by default, strictly enough for a general audience', () => {
    const policy = loadConfig({}).safety.policy;
    expect(policy).toEqual(DEFAULT_POLICY);
    for (const category of SAFETY_CATEGORIES) expect(policy[category].action).toBe('refuse');
    expect(loadConfig({}).safety.openaiModeration).toBe(false);
  });

  it('explains every category in words for people, without codes', () => {
    for (const category of SAFETY_CATEGORIES) {
      const wording = CATEGORY_WORDING[category];
      for (const text of [wording.title, wording.covers, wording.change]) {
        expect(text).toMatch(/^[A-Z].*[a-z.]$/);
        expect(text).not.toMatch(/_/);
      }
    }
  });

  it('lets an operator relax or tighten a category and keeps the rest', () => {
    const file = policyFile({
      categories: { sexual: { action: 'allow' }, violence_gore: { action: 'withhold', threshold: 0.8 } },
    });
    const policy = loadConfig({ SAFETY_POLICY_FILE: file }).safety.policy;
    expect(policy.sexual).toEqual({ action: 'allow', threshold: 0.5 });
    expect(policy.violence_gore).toEqual({ action: 'withhold', threshold: 0.8 });
    expect(policy.hate).toEqual(DEFAULT_POLICY.hate);
    expect(policy.sexual_minors).toEqual(DEFAULT_POLICY.sexual_minors);
  });

  it('stops start-up on any attempt to change the rule for minors, naming the setting', () => {
    for (const rule of [{ action: 'allow' }, { action: 'refuse' }, { threshold: 0.9 }, {}]) {
      const problems = problemsOf({
        SAFETY_POLICY_FILE: policyFile({ categories: { sexual_minors: rule } }),
      });
      expect(problems).toEqual([
        expect.stringMatching(
          /^SAFETY_POLICY_FILE: categories\.sexual_minors cannot be set: .*always refused/,
        ),
      ]);
    }
  });

  it('stops start-up on a file that is missing, not JSON, or names an unknown category or action', () => {
    const cases: Array<[string, RegExp]> = [
      [path.join(dir, 'absent.json'), /cannot read .*ENOENT/],
      [policyFile('{ not json'), /is not valid JSON/],
      [policyFile({ categories: { spam: { action: 'refuse' } } }), /spam/],
      [policyFile({ categories: { hate: { action: 'block' } } }), /categories\.hate\.action/],
      [policyFile({ categories: { hate: { threshold: 0 } } }), /categories\.hate\.threshold/],
      [policyFile({ categories: { hate: { threshold: 2 } } }), /categories\.hate\.threshold/],
    ];
    for (const [file, message] of cases) {
      const problems = problemsOf({ SAFETY_POLICY_FILE: file });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^SAFETY_POLICY_FILE: /);
      expect(problems[0]).toMatch(message);
    }
  });

  it('asks for OPENAI_API_KEY when OpenAI moderation is turned on', () => {
    expect(problemsOf({ SAFETY_OPENAI_MODERATION: 'on' })).toEqual([
      expect.stringMatching(/^SAFETY_OPENAI_MODERATION: needs OPENAI_API_KEY/),
    ]);
    expect(
      loadConfig({ SAFETY_OPENAI_MODERATION: 'on', OPENAI_API_KEY: 'sk-x' }).safety.openaiModeration,
    ).toBe(true);
  });
});
