import { beforeAll, vi } from 'vitest';
import { File as NodeFile } from 'node:buffer';

/**
 * jsdom's File and FormData do not survive Node's fetch (the multipart body comes out short and the
 * request hangs): a test file that sends forms uses Node's own, as a browser would use its own.
 */
export function setupNodeFormData(): void {
  beforeAll(async () => {
    const form = await new Response('', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }).formData();
    vi.stubGlobal('FormData', form.constructor);
    vi.stubGlobal('File', NodeFile);
  });
}
