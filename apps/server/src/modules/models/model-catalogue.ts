import {
  DEFAULT_MODEL_ID,
  type Capability,
  type ModelEntry,
  type ModelOf,
  type TextToImageModel,
} from '../../adapters/providers/catalogue.ts';
import type { ImageToolsProvider } from '../../adapters/providers/image-tools.ts';
import type { ProviderName, TextToImageProvider } from '../../adapters/providers/text-to-image.ts';
import type { TrainerProvider } from '../../adapters/providers/trainer.ts';
import { VENDOR_LABEL } from '../../adapters/providers/vendors.ts';
import { AppError, notFound } from '../../errors.ts';

/** Whether `id` can name a trained model: those ids are their trained_models row ids (UUIDs), shared models' are slugs. */
export const isPersonalModelId = (id: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/**
 * The one model catalogue: every model of every capability (text-to-image, each image tool, train),
 * mapped to the vendor adapter that runs it. Models whose vendor has no adapter (or an adapter without
 * a key) stay listed, marked unavailable with the reason, rather than hidden.
 *
 * A model may belong to one person (a trained model): the caller passes their own models in the
 * Viewer (read from the database per request), so it is listed for and usable by that person alone,
 * and anyone else asking for it by id gets the answer an unknown id gets.
 */

/** A vendor's adapters, one per kind of work: text-to-image, the image tools, training. */
export interface VendorAdapters {
  textToImage?: TextToImageProvider;
  tools?: ImageToolsProvider;
  trainer?: TrainerProvider;
}

/** One vendor that can run a model: its name and that vendor's model name. */
export interface VendorRoute {
  provider: ProviderName;
  providerModel: string;
}

export type CatalogueAdapters = Partial<Record<ProviderName, VendorAdapters>>;

/** The adapter type that runs a capability. */
export type AdapterOf<C extends Capability> = C extends 'text-to-image'
  ? TextToImageProvider
  : C extends 'train'
    ? TrainerProvider
    : ImageToolsProvider;

/**
 * A ready trained model as a text-to-image entry of its owner's catalogue: its base model's sizes,
 * ratios and price per image, with what generation needs to apply it.
 */
export type PersonalModel = TextToImageModel & {
  ownerId: string;
  personal: {
    triggerWord: string;
    coverUrl: string | null;
    /** Our stored copy of the weights (LoRA file or local style profile). */
    weightsKey: string;
  };
};

/** Whether a listed or resolved model is a person's own (trained) model. */
export const isPersonalModel = <M extends object>(model: M): model is M & PersonalModel =>
  'personal' in model;

/** Where a person's own ready models come from (the training module reads them per request). */
export interface PersonalModelSource {
  forUser(userId: string): Promise<PersonalModel[]>;
}

/** Who is asking: a person sees the shared models plus their own (`own`, loaded by the caller). */
export interface Viewer {
  userId?: string;
  own?: readonly PersonalModel[];
}

export type ModelListing<C extends Capability = Capability> = ModelOf<C> & {
  available: boolean;
  /** Why it cannot be used right now (only when unavailable). */
  unavailableReason?: string;
};

export interface ResolvedModel<C extends Capability = Capability> {
  model: ModelOf<C>;
  provider: AdapterOf<C>;
}

type Owned = ModelEntry & { ownerId?: string };

const isOf =
  <C extends Capability>(capability: C) =>
  (m: ModelEntry): m is ModelOf<C> =>
    m.capability === capability;

export class ModelCatalogue {
  private readonly shared: readonly Owned[];

  constructor(
    models: readonly ModelEntry[],
    private readonly adapters: CatalogueAdapters,
  ) {
    this.shared = models;
  }

  /** A capability's models the viewer may see, in catalogue order (theirs last), with availability. */
  list<C extends Capability>(capability: C, viewer: Viewer = {}): ModelListing<C>[] {
    return this.visible(viewer)
      .filter(isOf(capability))
      .map((m) => this.listing(m));
  }

  /** The listing for one id of any capability, or undefined (no throw). */
  find(id: string, viewer: Viewer = {}): ModelListing | undefined {
    const model = this.visible(viewer).find((m) => m.id === id);
    return model && this.listing(model);
  }

  /**
   * The model (the capability's default when `id` is empty) and the adapter that runs it. Throws
   * AppError VALIDATION_FAILED (400) for an unknown id and for a model whose vendor is not configured:
   * both are choices the person can change, and a 4xx keeps the message visible (the error handler
   * masks 5xx details). The two kinds word it as people have always read it.
   */
  get<C extends Capability>(capability: C, id: string | undefined, viewer: Viewer = {}): ResolvedModel<C> {
    const model = id
      ? this.visible(viewer)
          .filter(isOf(capability))
          .find((m) => m.id === id)
      : this.defaultModel(capability);
    const choices = () =>
      this.list(capability, viewer)
        .filter((m) => m.available)
        .map((m) => m.id)
        .join(', ');
    const textToImage = capability === 'text-to-image';
    if (!model && id && isPersonalModelId(id)) {
      // Trained models have uuid ids: someone else's, a deleted one and an unknown one read alike.
      throw notFound('This model');
    }
    if (!model) {
      throw new AppError(
        'VALIDATION_FAILED',
        textToImage
          ? `Unknown model "${id}". Choose one of: ${choices()}.`
          : `Unknown model "${id}" for this tool. Choose one of: ${choices()}.`,
      );
    }
    const provider = this.adapter(model.provider, capability);
    if (!provider) {
      const reason = this.reason(model);
      const fallback = this.defaultModel(capability) ?? this.list(capability)[0]!;
      throw new AppError(
        'VALIDATION_FAILED',
        textToImage
          ? `${model.displayName} is unavailable: ${reason} Choose another model, such as ${fallback.displayName}.`
          : `${model.displayName} is unavailable: ${lowerFirst(reason)} Choose one of: ${choices()}.`,
      );
    }
    return { model, provider };
  }

  /** A job's model and adapter by id (the worker resolves the model recorded on the job); no throw. */
  byId<C extends Capability>(id: string, capability: C, viewer: Viewer = {}): ResolvedModel<C> | undefined {
    const model = this.visible(viewer)
      .filter(isOf(capability))
      .find((m) => m.id === id);
    const provider = model && this.adapter(model.provider, capability);
    return model && provider ? { model, provider } : undefined;
  }

  /**
   * The model used when a request names none: for text-to-image the catalogue default when available,
   * otherwise the capability's first available shared model (hosted ones are listed first for tools,
   * so a server with a vendor key defaults to real AI). Undefined when none is available.
   */
  defaultModel<C extends Capability>(capability: C): ModelOf<C> | undefined {
    const models = this.visible({}).filter(isOf(capability));
    const usable = (m: ModelOf<C>) => this.adapter(m.provider, capability) !== undefined;
    const preferred = models.find((m) => m.id === DEFAULT_MODEL_ID);
    if (preferred && usable(preferred)) return preferred;
    return models.find(usable);
  }

  /**
   * The vendors that may run a shared model, in the order to try them: its own, then each alternate
   * whose vendor is configured here (failover). Empty for an unknown id.
   */
  routes(id: string, capability: Capability): VendorRoute[] {
    const model = this.shared.find((m) => m.id === id && m.capability === capability && !m.ownerId);
    if (!model) return [];
    return [{ provider: model.provider, providerModel: model.providerModel }, ...model.alternates].filter(
      (r) => this.adapter(r.provider, capability) !== undefined,
    );
  }

  /** Whether a vendor has any adapter set up here (a key, a URL; the local engine always). */
  configured(vendor: ProviderName): boolean {
    const adapters = this.adapters[vendor];
    return Boolean(
      adapters?.textToImage?.available || adapters?.tools?.available || adapters?.trainer?.available,
    );
  }

  /** Every shared model of every capability, with its availability (the operator's view of vendors). */
  all(): ModelListing[] {
    return this.shared.filter((m) => m.ownerId === undefined).map((m) => this.listing(m));
  }

  /** A vendor's adapter for a capability (e.g. to poll or cancel a request recorded on a job). */
  adapter<C extends Capability>(vendor: ProviderName, capability: C): AdapterOf<C> | undefined {
    const adapters = this.adapters[vendor];
    const adapter =
      capability === 'text-to-image'
        ? adapters?.textToImage
        : capability === 'train'
          ? adapters?.trainer
          : adapters?.tools;
    return adapter?.available ? (adapter as AdapterOf<C>) : undefined;
  }

  /** A shared text-to-image model by id, whoever asks (a trained model's base); no throw. */
  sharedTextToImage(id: string): TextToImageModel | undefined {
    const model = this.shared.find((m) => m.id === id && m.ownerId === undefined);
    return model?.capability === 'text-to-image' ? model : undefined;
  }

  private visible(viewer: Viewer): readonly Owned[] {
    const { userId, own = [] } = viewer;
    const shared = this.shared.filter((m) => m.ownerId === undefined || m.ownerId === userId);
    if (userId === undefined) return shared;
    return [...shared, ...own.filter((m) => m.ownerId === userId)];
  }

  private listing<M extends ModelEntry>(model: M): M & { available: boolean; unavailableReason?: string } {
    const available = this.adapter(model.provider, model.capability) !== undefined;
    return available
      ? { ...model, available }
      : { ...model, available, unavailableReason: this.reason(model) };
  }

  private reason(model: ModelEntry): string {
    // Operators configure FAL_KEY / REPLICATE_API_TOKEN; people only need to know it is off here.
    // A sentence of its own: the web shows it alone.
    if (model.provider === 'local') return 'The local engine is not running on this server.';
    if (model.provider === 'comfyui') return 'This server has no ComfyUI server connected.';
    if (model.provider === 'a1111') return 'This server is not connected to an AUTOMATIC1111 server.';
    return `This server has no ${VENDOR_LABEL[model.provider]} key configured.`;
  }
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
