/** Where a trained model's files live in our storage: its weights (or style profile) and its cover. */
export const modelPrefix = (userId: string, modelId: string) => `models/${userId}/${modelId}/`;

/** A vendor's file name made safe as the last part of a storage key. */
export const safeFileName = (name: string) =>
  name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '') || 'weights';
