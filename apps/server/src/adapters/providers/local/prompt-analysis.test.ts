import { describe, expect, it } from 'vitest';
import { analysePrompt, tokenize } from './prompt-analysis.ts';

describe('analysePrompt', () => {
  it('keeps multi-word phrases as one token', () => {
    expect(tokenize('An OIL PAINTING of a low poly fox, black and white')).toEqual(
      expect.arrayContaining(['oil painting', 'low poly', 'black and white', 'fox']),
    );
  });

  it('reads themes, elements, texture and mood', () => {
    const s = analysePrompt('dramatic sunset over mountains, watercolor');
    expect(s.themes[0]?.name).toBe('sunset');
    expect([...s.elements]).toEqual(expect.arrayContaining(['mountains', 'sun']));
    expect(s.texture).toBe('watercolor');
    expect(s.mood.contrast).toBeGreaterThan(1);
  });

  it('infers stars from night and a figure from portrait words', () => {
    expect(analysePrompt('city at night').elements.has('stars')).toBe(true);
    expect(analysePrompt('portrait of a woman').elements.has('figure')).toBe(true);
    expect(analysePrompt('portrait of a woman').longHair).toBe(true);
  });

  it('removes what the negative prompt names', () => {
    const s = analysePrompt('starry night over a lake with a man', 'stars, people, blue, grain');
    expect(s.elements.has('stars')).toBe(false);
    expect(s.elements.has('figure')).toBe(false);
    expect(s.elements.has('water')).toBe(true);
    expect(s.removedHues).toEqual([218]);
    expect(s.themes.map((t) => t.name)).toContain('night');
    expect(analysePrompt('sunset', 'sun').elements.has('sun')).toBe(false);
    expect(analysePrompt('neon city', 'neon').themes).toEqual([]);
  });

  it('keeps words it has no meaning for as a stable hash', () => {
    const a = analysePrompt('a cat wearing a hat');
    expect(a.unknownWords).toEqual(['cat', 'wearing', 'hat']);
    expect(analysePrompt('a cat wearing a hat').unknownHash).toBe(a.unknownHash);
    expect(analysePrompt('a dog wearing a hat').unknownHash).not.toBe(a.unknownHash);
  });
});
