import { AppError } from '../../errors.ts';
import { DEFAULT_MODEL_ID, type ModelEntry } from './catalogue.ts';
import type { ProviderName, TextToImageProvider } from './text-to-image.ts';

/**
 * Maps each catalogue model to the adapter that runs it. Models whose provider has no adapter (or an
 * adapter without a key) stay listed, marked unavailable with the reason, rather than hidden.
 */

export interface ProviderAdapters {
  local: TextToImageProvider;
  fal?: TextToImageProvider;
  replicate?: TextToImageProvider;
}

export interface ModelListing extends ModelEntry {
  available: boolean;
  /** Why it cannot be used right now (only when unavailable). */
  unavailableReason?: string;
}

export interface ResolvedModel {
  model: ModelEntry;
  provider: TextToImageProvider;
}

const VENDOR_LABEL: Record<ProviderName, string> = {
  local: 'the local engine',
  fal: 'fal.ai',
  replicate: 'Replicate',
};

export class ProviderRegistry {
  private readonly models: readonly ModelEntry[];
  private readonly byId: ReadonlyMap<string, ModelEntry>;

  constructor(
    models: readonly ModelEntry[],
    private readonly adapters: ProviderAdapters,
  ) {
    this.models = models;
    this.byId = new Map(models.map((m) => [m.id, m]));
  }

  /** Every model, in catalogue order, with its availability. */
  list(): ModelListing[] {
    return this.models.map((m) => this.listing(m));
  }

  /** The listing for one id, or undefined (no throw). */
  find(id: string): ModelListing | undefined {
    const model = this.byId.get(id);
    return model && this.listing(model);
  }

  /**
   * The model and the adapter that runs it. Throws AppError VALIDATION_FAILED (400) for an unknown id
   * and for a model whose provider is not configured: both are choices the person can change, and a
   * 4xx keeps the message visible (the error handler masks 5xx details).
   */
  get(id: string): ResolvedModel {
    const model = this.byId.get(id);
    if (!model) {
      const choices = this.list()
        .filter((m) => m.available)
        .map((m) => m.id);
      throw new AppError('VALIDATION_FAILED', `Unknown model "${id}". Choose one of: ${choices.join(', ')}.`);
    }
    const provider = this.adapterFor(model);
    if (!provider) {
      throw new AppError(
        // A choice the person can change, so a 4xx (never a 5xx for user input).
        'VALIDATION_FAILED',
        `${model.displayName} is unavailable: ${this.reason(model)} Choose another model, such as ${this.defaultModel().displayName}.`,
      );
    }
    return { model, provider };
  }

  /** The model used when a request names none: the catalogue default if available, else the first available. */
  defaultModel(): ModelEntry {
    const preferred = this.byId.get(DEFAULT_MODEL_ID);
    if (preferred && this.adapterFor(preferred)) return preferred;
    return this.models.find((m) => this.adapterFor(m)) ?? this.models[0]!;
  }

  /** The adapter for a vendor (e.g. to poll or cancel a request recorded on a job). */
  adapter(name: ProviderName): TextToImageProvider | undefined {
    const a = this.adapters[name];
    return a?.available ? a : undefined;
  }

  private adapterFor(model: ModelEntry): TextToImageProvider | undefined {
    return this.adapter(model.provider);
  }

  private listing(model: ModelEntry): ModelListing {
    const available = this.adapterFor(model) !== undefined;
    return available
      ? { ...model, available }
      : { ...model, available, unavailableReason: this.reason(model) };
  }

  private reason(model: ModelEntry): string {
    // Operators configure FAL_KEY / REPLICATE_API_TOKEN; people only need to know it is off here.
    // A sentence of its own (the web shows it alone), worded as the tool catalogue's reason is.
    if (model.provider === 'local') return 'The local engine is not running on this server.';
    return `This server has no ${VENDOR_LABEL[model.provider]} key configured.`;
  }
}
