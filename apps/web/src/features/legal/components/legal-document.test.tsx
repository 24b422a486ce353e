import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { json, type LocalServer } from '@/testing/local-server';
import { renderWithApp, startApiServer } from '@/testing/app-harness';
import { LegalDocument } from './legal-document';

let server: LocalServer;
let i18n: I18n;
beforeAll(async () => {
  ({ server, i18n } = await startApiServer());
});
afterEach(() => cleanup());
afterAll(() => server.close());

describe('legal pages', () => {
  it("renders the operator's Markdown safely: no raw HTML, no javascript: links", async () => {
    server.route('GET', '/api/legal/terms', (_req, res) =>
      json(res, 200, {
        page: 'terms',
        markdown:
          '# Our Terms\n\nBe **kind**.\n\n<img src=x onerror="window.__pwned=1">\n\n[contact](javascript:alert(1)) and [site](https://example.com)\n',
        is_default: false,
      }),
    );
    const { container } = renderWithApp(<LegalDocument page="terms" />, { i18n });
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Our Terms');
    expect(container.querySelector('strong')?.textContent).toBe('kind');
    expect(container.querySelector('img')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
    const contact = screen.getByText('contact');
    expect(contact.getAttribute('href') ?? '').not.toMatch(/javascript/i);
    expect(screen.getByText('site').getAttribute('href')).toBe('https://example.com');
    expect(screen.queryByText(/default text that ships with Lumina/)).toBeNull();
  });

  it('says when the text is the default one', async () => {
    server.route('GET', '/api/legal/privacy', (_req, res) =>
      json(res, 200, { page: 'privacy', markdown: '# Privacy Policy\n', is_default: true }),
    );
    renderWithApp(<LegalDocument page="privacy" />, { i18n });
    expect(await screen.findByText(/default text that ships with Lumina/)).toBeTruthy();
  });
});
