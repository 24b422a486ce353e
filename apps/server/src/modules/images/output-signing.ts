import type { ContentCredentials } from '../../adapters/c2pa/c2pa.ts';
import { vendorLabel } from '../../adapters/providers/vendors.ts';
import type { JobRow } from '../../db/schema/index.ts';
import { TEXT_TO_IMAGE_KIND } from '../generation/text-to-image.kind.ts';

/** How outputs (images and videos) are signed: the C2PA signer and how a model id is named for people. */
export interface OutputSigning {
  credentials: ContentCredentials;
  modelName(modelId: string): string;
}

/** The manifest of a job's output: made (text-to-image) or edited from its source images (a tool). */
export function provenanceOf(job: JobRow, modelName: (id: string) => string) {
  const input = (job.input ?? {}) as { sourceImageIds?: unknown };
  const sources = Array.isArray(input.sourceImageIds)
    ? input.sourceImageIds.filter((id): id is string => typeof id === 'string')
    : [];
  return {
    action: job.kind === TEXT_TO_IMAGE_KIND ? ('created' as const) : ('edited' as const),
    model: modelName(job.modelId),
    vendor: vendorLabel(job.provider),
    ingredients: job.kind === TEXT_TO_IMAGE_KIND ? [] : sources,
  };
}
