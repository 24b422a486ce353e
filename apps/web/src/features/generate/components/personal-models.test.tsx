import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { contracts, type ModelInfo } from '@lumina/contracts';
import { AppProvider } from '@/app/provider';
import { fakeModel, newQueryClient, renderWithApp } from '@/testing/app-harness';
import { setupApiServer } from '@/testing/api-server';
import { answer } from '@/testing/fake-api';
import commonEn from '../../../../public/locales/en/common.json';
import { usePromptFromUrl } from '../hooks/use-prompt-from-url';
import { generateFormStore } from '../stores/generate-form';
import { GenerateForm } from './generate-form';
import { GenerateStudio } from './generate-studio';

const { server, i18n } = setupApiServer();
afterEach(() => {
  cleanup();
  generateFormStore.getState().reset();
});

const f = commonEn.generate.form;
const PERSONAL_ID = '8d9e0f1a-2b3c-4d5e-8f60-718293a4b5c6';
const shared = fakeModel();
const flux = fakeModel({ id: 'flux-dev', display_name: 'FLUX.1 dev', provider: 'fal', credit_cost: 5 });
const mine = fakeModel({
  id: PERSONAL_ID,
  display_name: 'Anna portraits',
  credit_cost: 2,
  supports: { negative_prompt: true, seed: true, lora_scale: true, prompt_strength: false },
  personal: { trigger_word: 'ohwx_anna', cover_url: null },
});
const trainer = fakeModel({
  id: 'local-trainer',
  display_name: 'Local style profile',
  capability: 'train',
  credit_cost: 30,
  training: { min_steps: 100, max_steps: 3000, default_steps: 1000, base_model: 'lumina-local' },
});

const prompt = () => screen.getByLabelText(f.prompt) as HTMLTextAreaElement;

describe('your trained models in Generate', () => {
  it('lists them after the shared models under "Your models", and shows the trigger word by the prompt', async () => {
    renderWithApp(<GenerateForm models={[mine, shared, flux]} balance={100} />, { i18n });
    const group = await screen.findByRole('group', { name: f.yourModels });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).value),
    ).toEqual([PERSONAL_ID]);
    const radios = screen.getAllByRole('radio', { name: /Lumina Local|FLUX|Anna/ }) as HTMLInputElement[];
    expect(radios.map((r) => r.value)).toEqual(['lumina-local', 'flux-dev', PERSONAL_ID]);
    expect(screen.queryByTestId('trigger-word-note')).toBeNull();

    fireEvent.click(within(group).getByRole('radio', { name: /Anna portraits/ }));
    const note = screen.getByTestId('trigger-word-note');
    expect(within(note).getByTestId('trigger-word').textContent).toBe('ohwx_anna');
    expect(note.textContent).toContain(f.triggerWordHint);
    fireEvent.change(prompt(), { target: { value: 'on a beach at dusk' } });
    fireEvent.click(within(note).getByRole('button', { name: f.triggerWordAdd }));
    expect(prompt().value).toBe('ohwx_anna on a beach at dusk');
    expect(note.textContent).toContain(f.triggerWordPresent);
    expect(within(note).queryByRole('button')).toBeNull();
    // The model's price and its LoRA scale apply as for any model.
    expect(screen.getByTestId('generate-submit').textContent).toBe('Generate · 2 credits');
    expect(screen.getByLabelText(f.loraScale)).toBeTruthy();
  });

  it('has no "Your models" heading for someone without trained models', async () => {
    renderWithApp(<GenerateForm models={[shared, flux]} balance={100} />, { i18n });
    await screen.findByRole('radio', { name: /FLUX/ });
    expect(screen.queryByRole('group', { name: f.yourModels })).toBeNull();
  });

  it('opens with the model the address names (Generate with this model), even when the cached catalogue predates it; train models are not offered', async () => {
    server.on(contracts.models, () => answer(contracts.models, { models: [shared, trainer, mine] }));
    server.answer(contracts.progress, { jobs: [] });
    const queryClient = newQueryClient();
    // The catalogue as it was before the training finished.
    queryClient.setQueryData(['models'], { models: [shared, trainer] satisfies ModelInfo[] });
    function Page() {
      usePromptFromUrl();
      return <GenerateStudio balance={100} streamOptions={{ getToken: () => null }} />;
    }
    const router = createMemoryRouter([{ path: '/generate', element: <Page /> }], {
      initialEntries: [`/generate?model=${PERSONAL_ID}`],
    });
    render(
      <AppProvider i18n={i18n} queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    const picked = (await screen.findByRole('radio', { name: /Anna portraits/ })) as HTMLInputElement;
    await waitFor(() => expect(picked.checked).toBe(true));
    expect(generateFormStore.getState().model).toBe(PERSONAL_ID);
    expect(screen.getByTestId('trigger-word').textContent).toBe('ohwx_anna');
    expect(screen.queryByRole('radio', { name: /Local style profile/ })).toBeNull();
    expect(router.state.location.search).toBe('');
  });
});
