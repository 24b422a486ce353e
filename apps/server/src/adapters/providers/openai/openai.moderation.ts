import OpenAI from 'openai';
import type { Config } from '../../../config.ts';

export const OPENAI_MODERATION_MODEL = 'omni-moderation-latest';

export interface OpenAIModerationOptions {
  apiKey: string;
  baseUrl?: string;
  /** A person waits on this before being charged; a slow answer falls back to the built-in screen. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** OpenAI's moderation endpoint: how strongly some texts fall in each of OpenAI's categories. */
export class OpenAIModeration {
  private readonly client: OpenAI;

  constructor(options: OpenAIModerationOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? 5000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Each OpenAI category's highest score (0..1) over the texts, keyed by OpenAI's name (`sexual/minors`…). */
  async categoryScores(texts: readonly string[]): Promise<Record<string, number>> {
    const response = await this.client.moderations.create({
      model: OPENAI_MODERATION_MODEL,
      input: [...texts],
    });
    const highest: Record<string, number> = {};
    for (const result of response.results) {
      for (const [name, score] of Object.entries(
        result.category_scores as unknown as Record<string, unknown>,
      )) {
        if (typeof score === 'number') highest[name] = Math.max(highest[name] ?? 0, score);
      }
    }
    return highest;
  }
}

/** The moderation client when SAFETY_OPENAI_MODERATION is on (config guarantees a key then). */
export function createOpenAIModeration(
  config: Pick<Config, 'providers' | 'safety'>,
  overrides?: Pick<OpenAIModerationOptions, 'fetch' | 'timeoutMs'>,
): OpenAIModeration | undefined {
  const { apiKey, baseUrl } = config.providers.openai ?? {};
  if (!config.safety.openaiModeration || !apiKey) return undefined;
  return new OpenAIModeration({ apiKey, baseUrl, ...overrides });
}
