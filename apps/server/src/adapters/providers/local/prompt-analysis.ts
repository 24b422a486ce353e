import { COLOUR_WORDS, type ThemeName } from './palette.ts';
import { hashString } from './random.ts';

/**
 * Reads a prompt (and its negative) into a scene description: which themes colour it, which
 * elements appear, which texture finishes it, and the mood. Pure and synchronous, so it is unit
 * tested on its own and runs once per request.
 */

export const ELEMENTS = [
  'mountains',
  'hills',
  'forest',
  'city',
  'figure',
  'sun',
  'moon',
  'stars',
  'water',
  'waves',
  'abstract',
  'clouds',
  'fog',
  'snow',
] as const;
export type SceneElement = (typeof ELEMENTS)[number];

export const TEXTURES = ['smooth', 'watercolor', 'oil', 'geometric', 'minimal'] as const;
export type Texture = (typeof TEXTURES)[number];

export interface Mood {
  contrast: number;
  saturation: number;
  brightness: number;
  /** -1 cool … +1 warm. */
  warmth: number;
}

export interface Scene {
  /** Themes in prompt order, weighted (the first named counts most). */
  themes: Array<{ name: ThemeName; weight: number }>;
  /** Colour words in the prompt, in order. */
  colours: Array<{ word: string; hue: number; sat: number }>;
  /** Colour words in the negative prompt: their hues are pushed out of the palette. */
  removedHues: number[];
  elements: Set<SceneElement>;
  /** The texture words named (null: the model's default). */
  texture: Texture | null;
  grain: boolean;
  /** Hair / long silhouette for a figure ("woman", "girl"…). */
  longHair: boolean;
  mood: Mood;
  /** Hash of the words the engine has no meaning for: they still steer colour and layout. */
  unknownHash: number;
  unknownWords: string[];
  /** Hash of the whole normalised prompt. */
  promptHash: number;
}

interface Meaning {
  themes?: ThemeName[];
  elements?: SceneElement[];
  /** Elements implied unless the prompt or negative says otherwise (e.g. sunset → sun). */
  implies?: SceneElement[];
  texture?: Texture;
  grain?: boolean;
  longHair?: boolean;
  mood?: Partial<Mood>;
}

const L: Record<string, Meaning> = {};
const add = (words: string, meaning: Meaning) => {
  for (const w of words.split(',')) L[w.trim()] = meaning;
};

// Themes (palette) and what they imply.
add('sunset,sundown,dusk,twilight', { themes: ['sunset'], implies: ['sun'] });
add('sunrise,dawn,morning', { themes: ['dawn'], implies: ['sun'] });
add('ocean,sea,marine,underwater,coast,coastal,beach,seascape,bay', {
  themes: ['ocean'],
  elements: ['water'],
});
add('lake,river,pond,water,reflection,reflections', { elements: ['water'] });
add('waves,wave,surf,tide', { themes: ['ocean'], elements: ['water', 'waves'] });
add('night,nighttime,midnight,nocturne,nocturnal', { themes: ['night'], implies: ['stars'] });
add('starry,stars,star,starlit,constellation,constellations', { elements: ['stars'], themes: ['night'] });
add('galaxy,cosmos,cosmic,space,nebula,universe,astronaut', { themes: ['space'], elements: ['stars'] });
add('forest,woods,woodland,trees,tree,pine,pines,jungle,grove', { themes: ['forest'], elements: ['forest'] });
add('neon,cyberpunk,synthwave,vaporwave,retrowave', { themes: ['neon'] });
add('pastel,pastels,soft,dreamy,candy', { themes: ['pastel'] });
add('monochrome,monochromatic,grayscale,greyscale,noir,bw', { themes: ['monochrome'] });
add('autumn,fall,autumnal,harvest', { themes: ['autumn'] });
add('desert,dunes,dune,sand,sahara,canyon', { themes: ['desert'], elements: ['hills'] });
add('winter,snow,snowy,frozen,ice,icy,arctic,frost', { themes: ['winter'], implies: ['snow'] });
add('fire,flames,flame,lava,volcano,inferno,ember,embers', { themes: ['fire'] });
add('spring,meadow,blossom,blossoms,flowers,flower,garden,bloom', {
  themes: ['spring'],
  elements: ['hills'],
});
add('golden,gold,glow,glowing', { themes: ['golden'] });
add('golden hour,magic hour', { themes: ['golden'], implies: ['sun'] });
add('storm,stormy,thunder,rain,rainy,overcast,gloomy', { themes: ['storm'], implies: ['clouds'] });
add('tropical,tropics,paradise,lagoon', { themes: ['tropical'], elements: ['water'] });
add('island,islands,archipelago', { themes: ['tropical'], elements: ['water', 'hills'] });
add('sepia,vintage,antique,retro', { themes: ['sepia'], grain: true });

// Composition.
add('mountain,mountains,peak,peaks,alps,range,summit,cliffs,valley,landscape,vista,panorama,scenery', {
  elements: ['mountains'],
});
add('hill,hills,hillside,countryside,fields,field,prairie,rolling', { elements: ['hills'] });
add('city,cities,skyline,buildings,building,urban,downtown,metropolis,skyscrapers,street,town,tokyo', {
  elements: ['city'],
});
add('cyberpunk', { themes: ['neon'], elements: ['city'] });
add('portrait,face,person,people,man,boy,figure,human,character,silhouette,self,selfie,headshot,someone', {
  elements: ['figure'],
});
add('woman,girl,lady,queen,princess', { elements: ['figure'], longHair: true });
add('sun,sunny,sunlight,sunshine', { elements: ['sun'] });
add('moon,moonlight,moonlit,lunar', { elements: ['moon'], themes: ['night'] });
add('abstract,shapes,fluid,flow,flowing,swirl,swirls,pattern,marble,liquid,waves of color', {
  elements: ['abstract'],
});
add('clouds,cloud,cloudy,sky,skies', { elements: ['clouds'] });
add('fog,foggy,mist,misty,haze,hazy,smoke,ethereal', { elements: ['fog'], mood: { contrast: 0.85 } });

// Texture.
add('watercolor,watercolour,aquarelle,wash,ink wash', { texture: 'watercolor' });
add('oil painting,oil,impasto,painterly,brushstrokes,brush strokes,impressionist,van gogh,acrylic', {
  texture: 'oil',
});
add('geometric,low poly,lowpoly,polygon,polygons,polygonal,triangles,faceted,cubist,crystal', {
  texture: 'geometric',
});
add('minimal,minimalist,minimalism,simple,flat,clean,vector', { texture: 'minimal' });
add('noise,grain,grainy,film,analog,35mm,photograph,photo,texture', { grain: true });
add('black and white,b&w', { themes: ['monochrome'] });
add('full moon', { elements: ['moon'], themes: ['night'] });

// Mood.
add('dramatic,epic,intense,bold,striking', { mood: { contrast: 1.25, saturation: 1.1 } });
add('dark,gloomy,moody,shadowy,sinister,horror', { mood: { brightness: -0.12, contrast: 1.15 } });
add('bright,light,airy,luminous,radiant,cheerful,happy', { mood: { brightness: 0.08 } });
add('vibrant,vivid,colorful,colourful,saturated,psychedelic,rainbow', { mood: { saturation: 1.35 } });
add('muted,faded,dull,desaturated,washed,subtle', { mood: { saturation: 0.6, contrast: 0.9 } });
add('calm,serene,peaceful,tranquil,quiet,gentle', { mood: { contrast: 0.9 } });
add('warm,cozy,cosy,hot,summer', { mood: { warmth: 0.6 } });
add('cold,cool,chilly,icy,frozen', { mood: { warmth: -0.6 } });

const STOP_WORDS = new Set(
  'a,an,the,of,in,on,at,over,under,with,and,or,by,for,to,from,into,above,below,behind,near,its,is,are,very,highly,detailed,high,quality,4k,8k,hd,art,style,artwork,image,picture,painting,scene,view,beautiful,stunning,masterpiece,best,ultra,realistic,photorealistic,render,digital,illustration,trending,artstation'.split(
    ',',
  ),
);

const PHRASES = Object.keys(L).filter((k) => k.includes(' '));

/** Lower-case words in prompt order, with multi-word phrases ("oil painting", "low poly") kept as one token. */
export function tokenize(text: string): string[] {
  let rest = ` ${text.toLowerCase().replace(/[^a-z0-9&'\s]+/g, ' ')} `.replace(/\s+/g, ' ');
  for (const phrase of PHRASES) {
    const needle = ` ${phrase} `;
    while (rest.includes(needle)) rest = rest.replace(needle, ` ${phrase.replaceAll(' ', '_')} `);
  }
  return rest
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((w) => w.replaceAll('_', ' ').replace(/'s$/, ''));
}

const PEOPLE_WORDS = new Set([
  'people',
  'person',
  'persons',
  'humans',
  'human',
  'figure',
  'figures',
  'faces',
]);

export function analysePrompt(prompt: string, negativePrompt = ''): Scene {
  const tokens = tokenize(prompt);
  const negTokens = tokenize(negativePrompt);

  const removedElements = new Set<SceneElement>();
  const removedThemes = new Set<ThemeName>();
  const removedHues: number[] = [];
  let removedTexture: Texture | null = null;
  let noGrain = false;
  for (const t of negTokens) {
    const m = L[t];
    if (PEOPLE_WORDS.has(t)) removedElements.add('figure');
    if (COLOUR_WORDS[t]) removedHues.push(COLOUR_WORDS[t]!.hue);
    if (!m) continue;
    m.elements?.forEach((e) => removedElements.add(e));
    m.implies?.forEach((e) => removedElements.add(e));
    // A negative theme word removes the theme only when it names nothing else ("stars" → no star field,
    // but the palette stays night-blue when the prompt asks for night).
    if (!m.elements && !m.implies) m.themes?.forEach((th) => removedThemes.add(th));
    if (m.texture) removedTexture = m.texture;
    if (m.grain) noGrain = true;
  }

  const themes = new Map<ThemeName, number>();
  const elements = new Set<SceneElement>();
  const implied = new Set<SceneElement>();
  const colours: Scene['colours'] = [];
  const unknownWords: string[] = [];
  const mood: Mood = { contrast: 1, saturation: 1, brightness: 0, warmth: 0 };
  let texture: Texture | null = null;
  let grain = false;
  let longHair = false;
  let order = 0;

  for (const t of tokens) {
    const colour = COLOUR_WORDS[t];
    const m = L[t];
    if (colour && !m) {
      colours.push({ word: t, hue: colour.hue, sat: colour.sat });
      continue;
    }
    if (!m) {
      if (!STOP_WORDS.has(t) && t.length > 1) unknownWords.push(t);
      continue;
    }
    for (const th of m.themes ?? []) {
      if (!themes.has(th)) themes.set(th, 1 / (1 + order++ * 0.9));
    }
    m.elements?.forEach((e) => elements.add(e));
    m.implies?.forEach((e) => implied.add(e));
    if (m.texture && !texture) texture = m.texture;
    if (m.grain) grain = true;
    if (m.longHair) longHair = true;
    if (m.mood) {
      mood.contrast *= m.mood.contrast ?? 1;
      mood.saturation *= m.mood.saturation ?? 1;
      mood.brightness += m.mood.brightness ?? 0;
      mood.warmth += m.mood.warmth ?? 0;
    }
    if (colour) colours.push({ word: t, hue: colour.hue, sat: colour.sat });
  }

  for (const e of implied) elements.add(e);
  // Sun and moon compete for the sky: the one named wins; a night scene keeps the moon.
  if (elements.has('sun') && elements.has('moon')) {
    const sunNamed = tokens.some((t) => L[t]?.elements?.includes('sun'));
    elements.delete(sunNamed && !themes.has('night') ? 'moon' : 'sun');
  }
  for (const e of removedElements) elements.delete(e);
  for (const th of removedThemes) themes.delete(th);
  if (removedTexture && texture === removedTexture) texture = null;
  if (noGrain) grain = false;

  const unknownHash = hashString(unknownWords.join(' '));
  return {
    themes: [...themes].map(([name, weight]) => ({ name, weight })),
    colours,
    removedHues,
    elements,
    texture,
    grain,
    longHair,
    mood: {
      contrast: clamp(mood.contrast, 0.6, 1.6),
      saturation: clamp(mood.saturation, 0.3, 1.8),
      brightness: clamp(mood.brightness, -0.25, 0.2),
      warmth: clamp(mood.warmth, -1, 1),
    },
    unknownHash,
    unknownWords,
    promptHash: hashString(tokens.join(' ')),
  };
}

const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);
