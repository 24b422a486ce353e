import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeImage, fakeModel, renderWithApp } from '@/testing/app-harness';
import { contracts } from '@lumina/contracts';
import { setupApiServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import commonEn from '../../../../public/locales/en/common.json';
import { remixInto } from '../hooks/use-remix';
import { generateFormStore } from '../stores/generate-form';
import { affordability } from '@/lib/credits/affordability';
import { totalCost } from '../utils/cost';
import { nearestAspectRatio } from '../utils/recipe';
import { GenerateForm } from './generate-form';

const { server, i18n } = setupApiServer();
afterEach(() => {
  cleanup();
  generateFormStore.getState().reset();
});

const local = fakeModel({ credit_cost: 2 });
const flux = fakeModel({
  id: 'flux-dev',
  display_name: 'FLUX.1 dev',
  provider: 'fal',
  credit_cost: 5,
  aspect_ratios: ['1:1', '4:3', '3:4', '16:9', '9:16'],
  max_images: 2,
  supports: { negative_prompt: true, seed: true, lora_scale: true, prompt_strength: true },
});
const pro = fakeModel({
  id: 'sdxl-pro',
  display_name: 'SDXL Pro',
  provider: 'replicate',
  available: false,
  unavailable_reason: 'Add REPLICATE_API_TOKEN to use Replicate models',
});
const models = [local, flux, pro];

const submitButton = () => screen.getByTestId('generate-submit') as HTMLButtonElement;
const prompt = () => screen.getByLabelText(commonEn.generate.form.prompt) as HTMLTextAreaElement;

describe('cost', () => {
  it('is the price per image times the count, and blocks only a known, too-small balance', () => {
    expect(totalCost(local, 3)).toBe(6);
    expect(totalCost(undefined, 3)).toBe(0);
    expect(affordability(6, 5)).toEqual({ ok: false, missing: 1 });
    expect(affordability(6, 6)).toEqual({ ok: true });
    expect(affordability(6, undefined)).toEqual({ ok: true });
  });

  it('maps an image size to the nearest offered aspect ratio', () => {
    expect(nearestAspectRatio(1344, 768, ['1:1', '16:9', '9:16'])).toBe('16:9');
    expect(nearestAspectRatio(768, 1024, ['1:1', '4:3', '3:4'])).toBe('3:4');
    expect(nearestAspectRatio(1000, 1000, ['16:9', '1:1'])).toBe('1:1');
  });
});

describe('generate form', () => {
  it('shows the total cost before starting and disables Generate when the balance is too low', async () => {
    const { rerender } = renderWithApp(<GenerateForm models={models} balance={100} />, { i18n });
    await waitFor(() => expect(submitButton().textContent).toBe('Generate · 2 credits'));
    fireEvent.click(screen.getByRole('radio', { name: '3' }));
    expect(submitButton().textContent).toBe('Generate · 6 credits');
    expect(submitButton().disabled).toBe(false);

    rerender(<GenerateForm models={models} balance={5} />);
    expect(submitButton().disabled).toBe(true);
    expect(screen.getByTestId('insufficient-credits').textContent).toContain(
      'This needs 6 credits and you have 5.',
    );
    fireEvent.click(screen.getByRole('radio', { name: '2' }));
    expect(submitButton().textContent).toBe('Generate · 4 credits');
    expect(submitButton().disabled).toBe(false);
    expect(screen.queryByTestId('insufficient-credits')).toBeNull();
  });

  it('says "1 credit", not "1 credits", when one credit is missing', async () => {
    const one = [{ ...models[0]!, credit_cost: 1, max_images: 1 }];
    renderWithApp(<GenerateForm models={one} balance={0} />, { i18n });
    await waitFor(() => expect(submitButton().textContent).toBe('Generate · 1 credit'));
    expect(screen.getByTestId('insufficient-credits').textContent).toContain(
      'This needs 1 credit and you have 0.',
    );
  });

  it('lists unavailable models disabled with the reason, and notes the local engine honestly', async () => {
    renderWithApp(<GenerateForm models={models} balance={100} />, { i18n });
    const proRadio = (await screen.findByRole('radio', { name: /SDXL Pro/ })) as HTMLInputElement;
    expect(proRadio.disabled).toBe(true);
    expect(screen.getByText('Add REPLICATE_API_TOKEN to use Replicate models')).toBeTruthy();
    expect(screen.getByTestId('local-engine-note').textContent).toBe(commonEn.generate.localEngineNote);
    fireEvent.click(screen.getByRole('radio', { name: /FLUX\.1 dev/ }));
    expect(screen.queryByTestId('local-engine-note')).toBeNull();
    // Sliders only for models that support them; image count up to the model's max.
    expect(screen.getByLabelText(commonEn.generate.form.loraScale)).toBeTruthy();
    expect(screen.getByLabelText(commonEn.generate.form.promptStrength)).toBeTruthy();
    expect(screen.queryByRole('radio', { name: '3' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: /Lumina Local/ }));
    expect(screen.queryByLabelText(commonEn.generate.form.loraScale)).toBeNull();
  });

  it('submits with Ctrl+Enter, sending only what the model supports, and reports the new balance', async () => {
    let body: unknown;
    server.on(contracts.prompt, (req) => {
      body = JSON.parse(req.body);
      return answer(contracts.prompt, {
        job_id: '6f1c1b8e-1c1a-4f7e-9c55-9b1d2c3e4f50',
        status: 'queued',
        cost: 4,
        balance: 96,
      });
    });
    server.answer(contracts.progress, { jobs: [] });
    const spent: number[] = [];
    renderWithApp(<GenerateForm models={models} balance={100} onSpent={(b) => spent.push(b)} />, { i18n });
    await waitFor(() => expect(submitButton().textContent).toBe('Generate · 2 credits'));
    fireEvent.change(prompt(), { target: { value: '  a red fox in snow  ' } });
    expect(screen.getByTestId('prompt-count').textContent).toBe('21 / 2000');
    fireEvent.click(screen.getByRole('radio', { name: '2' }));
    fireEvent.click(screen.getByRole('radio', { name: /16:9/ }));
    fireEvent.keyDown(prompt(), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(spent).toEqual([96]));
    expect(body).toEqual({
      text: '  a red fox in snow  ',
      model: 'lumina-local',
      aspect_ratio: '16:9',
      num_images: 2,
    });
  });

  it('shows validation and the server detail (402) next to the form', async () => {
    server.on(contracts.prompt, () =>
      answerError(402, 'INSUFFICIENT_CREDITS', 'This needs 2 credits; you have 1.'),
    );
    renderWithApp(<GenerateForm models={models} balance={undefined} />, { i18n });
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.click(submitButton());
    expect(await screen.findByText('Describe the image you want')).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    fireEvent.change(prompt(), { target: { value: 'a red fox' } });
    fireEvent.click(submitButton());
    const alert = await screen.findByTestId('generate-error');
    expect(alert.textContent).toContain('This needs 2 credits; you have 1.');
    expect(alert.querySelector('a')?.getAttribute('href')).toBe('/credits');
  });

  it('sends a locked seed, and none while the seed is random', async () => {
    const bodies: unknown[] = [];
    server.on(contracts.prompt, (req) => {
      bodies.push(JSON.parse(req.body));
      return answer(contracts.prompt, {
        job_id: '6f1c1b8e-1c1a-4f7e-9c55-9b1d2c3e4f51',
        status: 'queued',
        cost: 2,
        balance: 90,
      });
    });
    renderWithApp(<GenerateForm models={models} balance={100} />, { i18n });
    await waitFor(() => expect(submitButton().disabled).toBe(false));
    fireEvent.change(prompt(), { target: { value: 'a red fox' } });
    fireEvent.click(screen.getByText(commonEn.generate.form.advanced));
    const seed = screen.getByLabelText(commonEn.generate.form.seed) as HTMLInputElement;
    expect(seed.disabled).toBe(true);
    expect(seed.placeholder).toBe(commonEn.generate.form.seedRandom);
    fireEvent.click(submitButton());
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).not.toHaveProperty('seed');

    fireEvent.click(screen.getByRole('button', { name: /Lock/ }));
    fireEvent.change(seed, { target: { value: '1234' } });
    fireEvent.click(submitButton());
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ seed: 1234 });
  });

  it('remix fills the form with the image recipe: prompt, negative, model, locked seed, sliders and aspect', async () => {
    remixInto(
      fakeImage({
        prompt: 'a castle in the clouds',
        negative_prompt: 'people',
        model: 'flux-dev',
        provider: 'fal',
        seed: 987654,
        lora_scale: 1.25,
        prompt_strength: 0.4,
        width: 1024,
        height: 768,
      }),
      models,
    );
    renderWithApp(<GenerateForm models={models} balance={100} />, { i18n });
    await waitFor(() => expect(prompt().value).toBe('a castle in the clouds'));
    expect((screen.getByRole('radio', { name: /FLUX\.1 dev/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText(commonEn.generate.form.negative) as HTMLTextAreaElement).value).toBe(
      'people',
    );
    const seed = screen.getByLabelText(commonEn.generate.form.seed) as HTMLInputElement;
    expect(seed.value).toBe('987654');
    expect(seed.disabled).toBe(false);
    expect(screen.getByRole('button', { name: /Locked/ }).getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByLabelText(commonEn.generate.form.loraScale) as HTMLInputElement).value).toBe('1.25');
    expect((screen.getByLabelText(commonEn.generate.form.promptStrength) as HTMLInputElement).value).toBe(
      '0.4',
    );
    expect((screen.getByRole('radio', { name: /4:3/ }) as HTMLInputElement).checked).toBe(true);
    expect(submitButton().textContent).toBe('Generate · 5 credits');
  });
});
