const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * Text as it reads, whatever characters typed it: invisible characters (Unicode format characters and
 * default-ignorables: zero-width space/joiner/non-joiner, word joiner, BOM, soft hyphen, bidi controls,
 * variation selectors, Hangul fillers…) removed, then Unicode NFKC, so fullwidth and compatibility letters
 * become the plain ones and a letter typed with a combining accent becomes the accented letter. The second
 * removal catches invisibles that NFKC itself produces. Letter case is left to the caller.
 */
export function foldLookalikes(text: string): string {
  return text.replace(INVISIBLE, '').normalize('NFKC').replace(INVISIBLE, '');
}
