import { describe, expect, it } from 'vitest';
import { startOpenAIFake } from '../../../test/fakes/openai-server.ts';
import { useFakeVendor } from '../../../test/support/vendor-adapters.ts';
import {
  createOpenAIModeration,
  OpenAIModeration,
} from '../../adapters/providers/openai/openai.moderation.ts';
import { loadConfig } from '../../config.ts';
import { openaiTextModeration } from './openai-moderation.ts';
import { DEFAULT_POLICY } from './policy.ts';
import { createTextScreener } from './text-screener.ts';

const fake = useFakeVendor(() => startOpenAIFake());

const moderation = () =>
  openaiTextModeration(
    new OpenAIModeration({ apiKey: fake.key, baseUrl: `${fake.url}/v1`, fetch: fake.fetch }),
  );

describe('OpenAI moderation through the openai SDK against a fake API', () => {
  it('sends every text to omni-moderation-latest and maps its categories onto ours', async () => {
    fake.moderationScores = (text) =>
      text === 'second'
        ? { sexual: 0.2, 'sexual/minors': 0.3, 'violence/graphic': 0.91, violence: 0.99 }
        : {
            sexual: 0.6,
            'hate/threatening': 0.7,
            'self-harm/intent': 0.4,
            'illicit/violent': 0.8,
            illicit: 0.9,
          };
    const decisions = await moderation().moderate({ texts: ['first', '', 'second'], hasPhoto: false });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.endpoint).toBe('moderations');
    expect(fake.requests[0]!.fields).toEqual({ model: 'omni-moderation-latest', input: ['first', 'second'] });
    // The highest score of each of our categories over all texts; plain violence and illicit are not ours.
    expect(decisions.sort((a, b) => a.category.localeCompare(b.category))).toEqual([
      { category: 'hate', score: 0.7, source: 'openai' },
      { category: 'self_harm', score: 0.4, source: 'openai' },
      { category: 'serious_harm', score: 0.8, source: 'openai' },
      { category: 'sexual', score: 0.6, source: 'openai' },
      { category: 'sexual_minors', score: 0.3, source: 'openai' },
      { category: 'violence_gore', score: 0.91, source: 'openai' },
    ]);
  });

  it('counts sexual content asked of a photo as an edit of a real person', async () => {
    fake.moderationScores = () => ({ sexual: 0.8 });
    const decisions = await moderation().moderate({ texts: ['make it so'], hasPhoto: true });
    expect(decisions).toEqual(
      expect.arrayContaining([
        { category: 'sexual', score: 0.8, source: 'openai' },
        { category: 'nudify_real_people', score: 0.8, source: 'openai' },
      ]),
    );
  });

  it('adds its decisions to the built-in screen, which decides alone when OpenAI fails', async () => {
    const warnings: object[] = [];
    const screener = createTextScreener({
      policy: DEFAULT_POLICY,
      moderation: moderation(),
      log: { warn: (obj: object) => warnings.push(obj) },
    });
    fake.moderationScores = () => ({ 'sexual/minors': 0.15 });
    // Words the lexicon does not know; the vendor's faint minors signal is enough (zero tolerance).
    const flagged = await screener.screen({ texts: ['a coded request'], hasPhoto: false });
    expect(flagged.verdict).toEqual({ action: 'refuse', category: 'sexual_minors' });
    expect(flagged.decisions).toEqual([{ category: 'sexual_minors', score: 0.15, source: 'openai' }]);

    fake.next('error');
    const fallback = await screener.screen({ texts: ['a nude portrait'], hasPhoto: false });
    expect(fallback.verdict).toEqual({ action: 'refuse', category: 'sexual' });
    expect(fallback.decisions.map((d) => d.source)).toEqual(['lexicon']);
    expect(JSON.stringify(warnings)).not.toContain('nude');
    expect(warnings).toHaveLength(1);

    // Nothing to screen, nothing sent.
    const before = fake.requests.length;
    await screener.screen({ texts: ['', '  '], hasPhoto: false });
    expect(fake.requests).toHaveLength(before);
  });

  it('is built only when SAFETY_OPENAI_MODERATION is on', () => {
    expect(createOpenAIModeration(loadConfig({ OPENAI_API_KEY: 'sk-x' }))).toBeUndefined();
    expect(
      createOpenAIModeration(loadConfig({ OPENAI_API_KEY: 'sk-x', SAFETY_OPENAI_MODERATION: 'on' })),
    ).toBeInstanceOf(OpenAIModeration);
  });
});
