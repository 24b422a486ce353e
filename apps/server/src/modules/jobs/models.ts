import type { ToolModel, TextToImageModel } from '../../adapters/providers/catalogue.ts';
import type { ImageToolsProvider } from '../../adapters/providers/image-tools.ts';
import type { ProviderName, TextToImageProvider } from '../../adapters/providers/text-to-image.ts';
import type { TrainerProvider } from '../../adapters/providers/trainer.ts';
import type { Tool } from '@lumina/contracts';
import { AppError } from '../../errors.ts';
import type { ModelCatalogue, VendorRoute } from '../models/model-catalogue.ts';
import type { Capability } from '../../adapters/providers/catalogue.ts';

/** Asks a vendor to stop a request; true when it confirms the request had not started. */
export interface Canceller {
  cancel(requestId: string, providerModel: string): Promise<boolean>;
}

/**
 * How job kinds reach models: the model recorded on a job and the adapter that runs it. The one place
 * the pipeline meets the model catalogue.
 */
export interface JobModels {
  /** A text-to-image model and its adapter; throws AppError when it is unknown or its vendor unavailable. */
  textToImage(modelId: string): { model: TextToImageModel; adapter: TextToImageProvider };
  /** An image-tool model and its adapter; throws AppError when it is no longer available. */
  tool(modelId: string, tool: Tool): { model: ToolModel; adapter: ImageToolsProvider };
  /** A vendor's tool adapter: to run a job moved to it, and to cancel a request recorded on a job. */
  toolAdapter(vendor: string, tool: Tool): ImageToolsProvider | undefined;
  /** The configured vendors of a shared model in failover order (its own first); empty when unknown. */
  routes(modelId: string, capability: Capability): VendorRoute[];
  /**
   * A vendor's text-to-image adapter: to cancel a request recorded on a job, and to run a job made with
   * a trained model (a person's own model is not in the shared catalogue the worker sees).
   */
  textToImageAdapter(vendor: string): TextToImageProvider | undefined;
  /** A vendor's trainer (undefined when it has none or no key). */
  trainer(vendor: string): TrainerProvider | undefined;
}

export function catalogueModels(catalogue: ModelCatalogue): JobModels {
  return {
    textToImage(modelId) {
      const { model, provider } = catalogue.get('text-to-image', modelId);
      return { model, adapter: provider };
    },
    tool(modelId, tool) {
      const resolved = catalogue.byId(modelId, tool);
      if (!resolved) throw new AppError('VALIDATION_FAILED', 'This tool model is no longer available.');
      return { model: resolved.model, adapter: resolved.provider };
    },
    toolAdapter: (vendor, tool) => catalogue.adapter(vendor as ProviderName, tool),
    textToImageAdapter: (vendor) => catalogue.adapter(vendor as ProviderName, 'text-to-image'),
    trainer: (vendor) => catalogue.adapter(vendor as ProviderName, 'train'),
    routes: (modelId, capability) => catalogue.routes(modelId, capability),
  };
}
