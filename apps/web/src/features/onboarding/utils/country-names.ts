import { COUNTRY_CODES } from '@lumina/contracts';

/** Every country the server accepts, named in the reader's language (Intl.DisplayNames) and sorted by name. */
export function countryOptions(language: string): { code: string; name: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
  } catch {
    names = null;
  }
  const collator = new Intl.Collator(language);
  return COUNTRY_CODES.map((code) => {
    let name = code;
    try {
      name = names?.of(code) ?? code;
    } catch {
      // A code this browser has no name for is shown as the code.
    }
    return { code, name };
  }).sort((a, b) => collator.compare(a.name, b.name));
}
