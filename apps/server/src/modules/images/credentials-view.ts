import { buffer } from 'node:stream/consumers';
import type { ImageCredentialsView } from '@lumina/contracts';
import {
  COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA,
  readCredentials,
  TRAINED_ALGORITHMIC_MEDIA,
} from '../../adapters/c2pa/c2pa.ts';
import type { Storage } from '../../adapters/storage/index.ts';

/** What the credentials view says of a file without (readable) content credentials. */
const NO_CREDENTIALS: ImageCredentialsView = {
  present: false,
  issuer: null,
  signed_at: null,
  generator: null,
  actions: [],
  digital_source_type: null,
  made_with_ai: false,
  model: null,
  vendor: null,
  ingredients: [],
  valid: false,
  problems: [],
};

/** The C2PA content credentials of a stored image or video, read back from its file for people. */
export async function credentialsView(storage: Storage, key: string): Promise<ImageCredentialsView> {
  const bytes = await buffer((await storage.get(key)).body);
  const read = await readCredentials(bytes).catch(() => undefined);
  // No manifest (an older file), or one that cannot even be parsed: there but broken, said so.
  if (!read)
    return read === null
      ? NO_CREDENTIALS
      : { ...NO_CREDENTIALS, present: true, problems: ['manifest.unreadable'] };
  return {
    present: true,
    issuer: read.issuer,
    signed_at: read.signedAt,
    generator: read.generator,
    actions: read.actions,
    digital_source_type: read.digitalSourceType,
    made_with_ai:
      read.digitalSourceType === TRAINED_ALGORITHMIC_MEDIA ||
      read.digitalSourceType === COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA,
    model: read.model,
    vendor: read.vendor,
    ingredients: read.ingredients,
    valid: read.valid,
    problems: read.problems,
  };
}
