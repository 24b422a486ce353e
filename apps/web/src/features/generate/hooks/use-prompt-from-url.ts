import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { generateFormStore } from '../stores/generate-form';

/**
 * "Try this prompt" arrives as `/generate?prompt=…&model=…` and "Generate with this model" as
 * `/generate?model=…` (plain links, so they survive the trip through sign-in): the form takes the prompt
 * and model once, and the address drops them so a reload does not overwrite later edits.
 */
export function usePromptFromUrl() {
  const [params, setParams] = useSearchParams();
  const prompt = params.get('prompt');
  const model = params.get('model');
  useEffect(() => {
    if (prompt === null && !model) return;
    generateFormStore
      .getState()
      .set({ ...(prompt !== null ? { text: prompt } : {}), ...(model ? { model } : {}) });
    const next = new URLSearchParams(params);
    next.delete('prompt');
    next.delete('model');
    setParams(next, { replace: true });
  }, [prompt, model, params, setParams]);
}
