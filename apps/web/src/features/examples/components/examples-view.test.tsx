import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contracts, type ImageView } from '@lumina/contracts';
import { renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer } from '@/testing/fake-api';
import { ExamplesView } from './examples-view';
import { tryPromptHref } from './example-card';

const { server, i18n } = setupApiServer();
afterEach(cleanup);

const example = (n: number, category: string): ImageView => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  url: `/files/${n}.png`,
  thumbnail_url: `/files/${n}.webp`,
  width: 1024,
  height: 688,
  content_type: 'image/png',
  prompt: `Prompt number ${n} & more`,
  negative_prompt: null,
  model: 'local-aurora',
  provider: 'local',
  seed: n,
  lora_scale: null,
  prompt_strength: null,
  duration_ms: 700,
  kind: 'generate',
  recipe: null,
  is_saved: true,
  is_favorite: false,
  is_example: true,
  category,
  is_own: false,
  download_count: 0,
  created_at: new Date(0).toISOString(),
});

describe('public examples', () => {
  it('shows each example with prompt, model and "Try this prompt", lazily and at its size, by category', async () => {
    server.answer(contracts.exampleCategories, {
      categories: [
        { name: 'Landscapes', count: 1 },
        { name: 'Posters', count: 1 },
      ],
    });
    server.on(contracts.listExamples, (req) => {
      const category = req.query.get('category');
      const all = [example(1, 'Landscapes'), example(2, 'Posters')];
      return answer(contracts.listExamples, {
        items: all.filter((i) => !category || i.category === category),
        next_cursor: null,
      });
    });
    renderWithApp(<ExamplesView modelName={(id) => (id === 'local-aurora' ? 'Aurora' : undefined)} />, {
      i18n,
    });
    await waitFor(() => expect(screen.getAllByTestId('example-card')).toHaveLength(2));
    const [first] = screen.getAllByTestId('example-card');
    expect(within(first!).getByText('Prompt number 1 & more')).toBeTruthy();
    expect(within(first!).getByTestId('example-model').textContent).toBe('Aurora · Landscapes');
    const img = within(first!).getByRole('img');
    expect(img.getAttribute('width')).toBe('1024');
    expect(img.getAttribute('height')).toBe('688');
    expect(img.getAttribute('alt')).toBe('Prompt number 1 & more');
    const later = within(screen.getAllByTestId('example-card')[1]!).getByRole('img');
    expect(later.getAttribute('loading')).toBe('eager');
    const link = within(first!).getByRole('link', { name: 'Try this prompt' });
    expect(link.getAttribute('href')).toBe('/generate?prompt=Prompt+number+1+%26+more&model=local-aurora');

    fireEvent.click(await screen.findByRole('button', { name: /Posters/ }));
    await waitFor(() => expect(screen.getAllByTestId('example-card')).toHaveLength(1));
    expect(server.requests.some((r) => r.url.includes('category=Posters'))).toBe(true);
    // "All" omits the category (spec P9).
    expect(server.requests.filter((r) => r.url.startsWith('/api/example_images?'))[0]!.url).not.toContain(
      'category',
    );
  });

  it('says so when there are no examples yet', async () => {
    server.answer(contracts.exampleCategories, { categories: [] });
    server.answer(contracts.listExamples, { items: [], next_cursor: null });
    renderWithApp(<ExamplesView />, { i18n });
    expect(await screen.findByTestId('examples-empty')).toBeTruthy();
  });

  it('builds the Generate link with the prompt and model', () => {
    expect(tryPromptHref({ prompt: 'a b', model: 'm' })).toBe('/generate?prompt=a+b&model=m');
  });
});
