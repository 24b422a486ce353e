import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithApp } from '@/testing/app-harness';
import { contracts } from '@lumina/contracts';
import { setupApiServer } from '@/testing/api-server';
import { LegalDocument } from './legal-document';

const { server, i18n } = setupApiServer();
afterEach(() => cleanup());

describe('legal pages', () => {
  it("renders the operator's Markdown safely: no raw HTML, no javascript: links", async () => {
    server.answer(contracts.legalDocument, {
      page: 'terms',
      markdown:
        '# Our Terms\n\nBe **kind**.\n\n<img src=x onerror="window.__pwned=1">\n\n[contact](javascript:alert(1)) and [site](https://example.com)\n',
      is_default: false,
    });
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
    server.answer(contracts.legalDocument, {
      page: 'privacy',
      markdown: '# Privacy Policy\n',
      is_default: true,
    });
    renderWithApp(<LegalDocument page="privacy" />, { i18n });
    expect(await screen.findByText(/default text that ships with Lumina/)).toBeTruthy();
  });
});
