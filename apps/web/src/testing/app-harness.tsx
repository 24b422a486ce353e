import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import type { ImageView, JobView, ModelInfo, TrainedModelView } from '@lumina/contracts';
import { AppProvider } from '@/app/provider';

export function newQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function renderWithApp(
  ui: ReactNode,
  { i18n, queryClient = newQueryClient() }: { i18n: I18n; queryClient?: QueryClient },
) {
  const tree = (element: ReactNode) => (
    <AppProvider i18n={i18n} queryClient={queryClient}>
      <RouterProvider router={createMemoryRouter([{ path: '*', element }], { initialEntries: ['/'] })} />
    </AppProvider>
  );
  const view = render(tree(ui));
  return { ...view, queryClient, rerender: (next: ReactNode) => view.rerender(tree(next)) };
}

let counter = 0;
const uuid = () => {
  counter += 1;
  return `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
};

export function fakeModel(overrides: Partial<ModelInfo> = {}): ModelInfo {
  return {
    id: 'lumina-local',
    display_name: 'Lumina Local',
    description: 'Procedural engine',
    provider: 'local',
    capability: 'text-to-image',
    available: true,
    unavailable_reason: null,
    credit_cost: 1,
    default_width: 1024,
    default_height: 1024,
    aspect_ratios: ['1:1', '16:9', '9:16'],
    max_images: 4,
    supports: { negative_prompt: true, seed: true, lora_scale: false, prompt_strength: false },
    accepts_lora: false,
    personal: null,
    training: null,
    ...overrides,
  };
}

export function fakeJob(overrides: Partial<JobView> = {}): JobView {
  return {
    id: uuid(),
    kind: 'generate',
    status: 'queued',
    model: 'lumina-local',
    prompt: 'a lighthouse at dusk',
    cost: 1,
    refunded: false,
    queue_position: 1,
    percent: null,
    message: null,
    preview_url: null,
    error: null,
    image_ids: [],
    num_images: 1,
    purchase_id: null,
    made_by: null,
    moved: null,
    created_at: new Date(Date.UTC(2026, 0, 1, 12, 0, counter)).toISOString(),
    started_at: null,
    finished_at: null,
    ...overrides,
  };
}

export function fakeImage(overrides: Partial<ImageView> = {}): ImageView {
  const id = uuid();
  return {
    id,
    url: `/files/${id}.png`,
    thumbnail_url: `/files/${id}.webp`,
    width: 1024,
    height: 1024,
    content_type: 'image/png',
    prompt: 'a lighthouse at dusk',
    negative_prompt: null,
    model: 'lumina-local',
    provider: 'local',
    seed: 42,
    lora_scale: null,
    prompt_strength: null,
    duration_ms: 120,
    kind: 'generate',
    recipe: null,
    is_saved: false,
    is_favorite: false,
    is_example: false,
    category: null,
    is_own: true,
    download_count: 0,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}

/** One of the person's trained models (GET /api/my_models), ready unless told otherwise. */
export function fakeTrainedModel(overrides: Partial<TrainedModelView> = {}): TrainedModelView {
  return {
    id: uuid(),
    name: 'Anna portraits',
    trigger_word: 'ohwx_anna',
    subject: 'person',
    status: 'ready',
    trainer_model: 'local-trainer',
    base_model: 'lumina-local',
    provider: 'local',
    steps: 1000,
    image_count: 8,
    set_id: null,
    job_id: null,
    cover_url: null,
    cost: 30,
    duration_ms: null,
    error: null,
    created_at: new Date(Date.UTC(2026, 0, 1, 12, 0, counter)).toISOString(),
    ...overrides,
  };
}
