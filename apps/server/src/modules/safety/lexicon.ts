import {
  DataSet,
  englishDataset,
  englishRecommendedTransformers,
  parseRawPattern,
  RegExpMatcher,
  type EnglishProfaneWord,
} from 'obscenity';
import type { SafetyCategory } from './policy.ts';

/**
 * The built-in word lists, matched with obscenity (its transformers fold leetspeak, repeated letters and
 * look-alike characters). Each entry is a group of patterns with a weight: how surely a match alone
 * means its category (1 = certain; below the default threshold of 0.5 = ambiguous alone, like "tit" the
 * bird or "cock" the rooster). A category's score combines its matches (see text-screen.ts).
 *
 * Pattern syntax (obscenity): `|` at either end is a word boundary, `[x]` is optional, `?` is any one
 * character. Patterns are matched against lower-cased text with separators in spelled-out words removed.
 */

/**
 * The kinds of match. `minors` and `nudify` are not categories on their own: a minors term turns
 * sexual matches into `sexual_minors`, and a nudify instruction is `nudify_real_people` when the request
 * carries a photo (`sexual` otherwise).
 */
export type LexiconKind =
  Exclude<SafetyCategory, 'sexual_minors' | 'nudify_real_people'> | 'minors' | 'nudify' | 'sexual_minors';

export interface LexiconMeta {
  kind: LexiconKind;
  weight: number;
}

/** obscenity's English words by kind; profanity outside the policy (e.g. "shit", "bastard") is not screened. */
const ENGLISH_WORDS: Partial<Record<EnglishProfaneWord, LexiconMeta>> = {
  anal: { kind: 'sexual', weight: 0.8 },
  anus: { kind: 'sexual', weight: 0.6 },
  bestiality: { kind: 'sexual', weight: 1 },
  blowjob: { kind: 'sexual', weight: 1 },
  boob: { kind: 'sexual', weight: 0.7 },
  buttplug: { kind: 'sexual', weight: 1 },
  cock: { kind: 'sexual', weight: 0.3 },
  cum: { kind: 'sexual', weight: 0.6 },
  cunt: { kind: 'sexual', weight: 0.5 },
  deepthroat: { kind: 'sexual', weight: 1 },
  dick: { kind: 'sexual', weight: 0.3 },
  dildo: { kind: 'sexual', weight: 1 },
  doggystyle: { kind: 'sexual', weight: 1 },
  'double penetration': { kind: 'sexual', weight: 1 },
  ejaculate: { kind: 'sexual', weight: 0.9 },
  felch: { kind: 'sexual', weight: 1 },
  fellatio: { kind: 'sexual', weight: 1 },
  'finger bang': { kind: 'sexual', weight: 1 },
  fisting: { kind: 'sexual', weight: 0.9 },
  fuck: { kind: 'sexual', weight: 0.7 },
  gangbang: { kind: 'sexual', weight: 1 },
  handjob: { kind: 'sexual', weight: 1 },
  hentai: { kind: 'sexual', weight: 0.9 },
  hooker: { kind: 'sexual', weight: 0.6 },
  incest: { kind: 'sexual', weight: 0.9 },
  'jerk off': { kind: 'sexual', weight: 0.9 },
  jizz: { kind: 'sexual', weight: 1 },
  lubejob: { kind: 'sexual', weight: 1 },
  masturbate: { kind: 'sexual', weight: 1 },
  orgasm: { kind: 'sexual', weight: 1 },
  orgy: { kind: 'sexual', weight: 1 },
  penis: { kind: 'sexual', weight: 0.8 },
  porn: { kind: 'sexual', weight: 1 },
  prick: { kind: 'sexual', weight: 0.2 },
  pussy: { kind: 'sexual', weight: 0.4 },
  rape: { kind: 'sexual', weight: 1 },
  scat: { kind: 'sexual', weight: 0.3 },
  semen: { kind: 'sexual', weight: 0.9 },
  sex: { kind: 'sexual', weight: 0.6 },
  slut: { kind: 'sexual', weight: 0.8 },
  tit: { kind: 'sexual', weight: 0.3 },
  twat: { kind: 'sexual', weight: 0.5 },
  vagina: { kind: 'sexual', weight: 0.8 },
  wank: { kind: 'sexual', weight: 0.7 },
  whore: { kind: 'sexual', weight: 0.8 },
  abeed: { kind: 'hate', weight: 1 },
  abo: { kind: 'hate', weight: 0.6 },
  africoon: { kind: 'hate', weight: 1 },
  arabush: { kind: 'hate', weight: 1 },
  boonga: { kind: 'hate', weight: 1 },
  chingchong: { kind: 'hate', weight: 1 },
  chink: { kind: 'hate', weight: 0.8 },
  dyke: { kind: 'hate', weight: 0.6 },
  fag: { kind: 'hate', weight: 0.9 },
  kike: { kind: 'hate', weight: 1 },
  nigger: { kind: 'hate', weight: 1 },
  retard: { kind: 'hate', weight: 0.7 },
  spastic: { kind: 'hate', weight: 0.6 },
  tranny: { kind: 'hate', weight: 0.9 },
};

/** Our own lists: [kind, weight, patterns]. */
const OWN: ReadonlyArray<readonly [LexiconKind, number, readonly string[]]> = [
  // A river and a cocktail share the letters of a slur that obscenity lists; these replace its entry.
  ['hate', 0.6, ['|negro|', '|negroes|']],
  ['hate', 1, ['heil hitler', 'gas the jews', 'white power', 'white genocide']],
  ['hate', 0.6, ['subhuman', 'ethnic cleansing', '|kkk|']],
  ['sexual', 0.8, ['|nude|', '|nudes|', '|naked|', '|nudity|', '|topless|', '|erotic', 'genital', '|xxx|']],
  [
    'sexual',
    0.9,
    ['|nsfw|', 'striptease', '|bdsm|', 'bare breasted', 'onlyfans', 'without clothes', '|no clothes|'],
  ],
  ['sexual', 0.7, ['|nipple', '|stripper', '|fetish', 'sexual']],
  ['sexual', 0.5, ['|sexy|', '|breasts|', '|seductive|', '|lingerie|']],
  [
    'sexual_minors',
    1,
    ['|loli|', 'lolicon', '|shota|', 'shotacon', 'jailbait', '|pedo', '|paedo', 'child porn'],
  ],
  [
    'minors',
    1,
    [
      '|child|',
      '|children|',
      '|kid|',
      '|kids|',
      '|minor|',
      '|minors|',
      '|underage',
      '|teen|',
      '|teens|',
      '|teenage',
      '|preteen',
      '|schoolgirl',
      '|schoolboy',
      '|toddler',
      '|infant',
      '|baby|',
      '|little girl',
      '|little boy',
      '|young girl',
      '|young boy',
      '|year old|',
      '|years old|',
      '|yo girl',
      '|yo boy',
    ],
  ],
  [
    'nudify',
    0.9,
    [
      '|undress',
      '|nudify',
      '|nudif',
      '|unclothe',
      'remove [her ][his ][their ][the ]cloth',
      'take off [her ][his ][their ][the ]cloth',
      'take [her ][his ][their ][the ]clothes off',
      'without [her ][his ][their ]clothes',
      'strip [her ][him ][them ]naked',
      'make [her ][him ][them ]naked',
      'see through [her ][his ][their ]cloth',
    ],
  ],
  [
    'violence_gore',
    1,
    [
      'disembowel',
      '|dismember',
      '|mutilat',
      'brains blown out',
      'slit [her ][his ][their ][the ]throat',
      'guts spilling',
    ],
  ],
  [
    'violence_gore',
    0.9,
    ['|gore|', '|gory|', 'decapitat', '|beheaded', 'severed head', 'severed limb', 'entrails', '|flayed'],
  ],
  ['violence_gore', 0.8, ['exposed bone', 'bloody corpse', 'mangled bod', 'torn flesh', 'rotting corpse']],
  ['violence_gore', 0.6, ['gruesome', 'pool of blood', 'blood splatter', '|torture', '|impaled']],
  [
    'self_harm',
    1,
    ['kill myself', 'killing myself', 'hang myself', 'slit my wrist', 'end my life', 'how to suicide'],
  ],
  [
    'self_harm',
    0.9,
    ['cut myself', 'cutting myself', 'slit wrist', 'suicide note', 'suicide method', 'commit suicide'],
  ],
  ['self_harm', 0.8, ['self harm', 'selfharm', '|pro ana|', 'thinspo']],
  ['self_harm', 0.4, ['suicide', '|overdose']],
  [
    'serious_harm',
    1,
    [
      'pipe bomb',
      'make a bomb',
      'build a bomb',
      'bomb recipe',
      'make explosive',
      'explosive recipe',
      '|tatp|',
      'cook meth',
      'meth recipe',
      'synthesi? meth',
      'nerve agent',
      '|sarin|',
      '|bioweapon',
      'chemical weapon',
      'make a gun',
      'ghost gun',
      '3d printed gun',
    ],
  ],
  ['serious_harm', 0.8, ['|ricin|', '|vx gas', 'thermite recipe', 'napalm recipe', 'make napalm']],
  ['serious_harm', 0.5, ['|anthrax|', '|molotov', 'detonator']],
];

/** obscenity's transformers, and a matcher over its English words (re-kinded) and our lists. */
function build() {
  const dataset = new DataSet<LexiconMeta | { originalWord: EnglishProfaneWord }>();
  dataset.addAll(englishDataset).removePhrasesIf((phrase) => {
    const word = (phrase.metadata as { originalWord?: EnglishProfaneWord } | undefined)?.originalWord;
    return !word || !ENGLISH_WORDS[word];
  });
  for (const [kind, weight, patterns] of OWN) {
    dataset.addPhrase((phrase) => {
      phrase.setMetadata({ kind, weight });
      for (const text of patterns) phrase.addPattern(parseRawPattern(text));
      if (kind === 'hate' && patterns.includes('|negro|')) phrase.addWhitelistedTerm('rio negro');
      return phrase;
    });
  }
  const matcher = new RegExpMatcher({ ...dataset.build(), ...englishRecommendedTransformers });
  const metaOf = (termId: number): LexiconMeta => {
    const meta = dataset.getPayloadWithPhraseMetadata({ termId, startIndex: 0, endIndex: 0, matchLength: 0 })
      .phraseMetadata as LexiconMeta | { originalWord: EnglishProfaneWord };
    return 'kind' in meta ? meta : ENGLISH_WORDS[meta.originalWord]!;
  };
  return { matcher, metaOf };
}

const { matcher, metaOf } = build();

/** The kinds and weights of every match in `text` (already folded); never the words themselves. */
export function lexiconMatches(text: string): LexiconMeta[] {
  return matcher.getAllMatches(text).map((match) => metaOf(match.termId));
}
