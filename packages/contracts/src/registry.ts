import { authConfigContract, devMailboxContract } from './auth.ts';
import type { Contract } from './contract.ts';
import { signedFileContract } from './files.ts';
import { healthContract, readyContract } from './health.ts';
import {
  currentUserContract,
  disableSecondFactorContract,
  enableSecondFactorContract,
  revokeAllSessionsContract,
  secondFactorsContract,
} from './user.ts';
import { creditBalanceContract } from './credits.ts';
import {
  billingPortalStatusContract,
  createCheckoutSessionContract,
  creditHistoryContract,
  creditPackagesContract,
  customerPortalContract,
  devCheckoutCancelContract,
  devCheckoutCompleteContract,
  devCheckoutSessionContract,
  processPaymentContract,
  purchaseCreditsContract,
  stripeWebhookContract,
  transactionsContract,
} from './payments.ts';
import { createReviewContract, pendingReviewsContract, reviewSummaryContract } from './reviews.ts';
import { cancelJobContract, progressContract, progressStreamContract, promptContract } from './generation.ts';
import {
  counterContract,
  deleteImageContract,
  exampleCategoriesContract,
  favoriteImageContract,
  imagesByModelContract,
  listExamplesContract,
  listImagesContract,
  publishExampleContract,
  saveImageContract,
  unsaveImageContract,
  trackDownloadContract,
  unfavoriteImageContract,
  unpublishExampleContract,
} from './images.ts';
import { modelsContract } from './models.ts';
import {
  animateContract,
  convertPreviewContract,
  copyStyleContract,
  deleteVideoContract,
  editImageContract,
  editImageFileContract,
  productHoldingContract,
  saveVideoContract,
  toolsContract,
  unsaveVideoContract,
  uploadImageContract,
  upscaleContract,
  videosContract,
} from './tools.ts';
import { toolRunsContract } from './tool-runs.ts';
import { falWebhookContract, replicateWebhookContract } from './webhooks.ts';
import { legalDocumentContract, publicConfigContract } from './site.ts';
import {
  deleteTrainedModelContract,
  renameTrainedModelContract,
  trainedModelsContract,
  trainModelContract,
  trainReplicateContract,
} from './training.ts';

/**
 * Every product endpoint's contract. A test checks that each has exactly one server route and that
 * the server has no /api route without a contract.
 */
export const contracts = {
  health: healthContract,
  ready: readyContract,
  signedFile: signedFileContract,
  currentUser: currentUserContract,
  devMailbox: devMailboxContract,
  authConfig: authConfigContract,
  secondFactors: secondFactorsContract,
  enableSecondFactor: enableSecondFactorContract,
  disableSecondFactor: disableSecondFactorContract,
  revokeAllSessions: revokeAllSessionsContract,
  prompt: promptContract,
  progress: progressContract,
  progressStream: progressStreamContract,
  cancelJob: cancelJobContract,
  models: modelsContract,
  trainModel: trainModelContract,
  trainReplicate: trainReplicateContract,
  trainedModels: trainedModelsContract,
  renameTrainedModel: renameTrainedModelContract,
  deleteTrainedModel: deleteTrainedModelContract,
  creditBalance: creditBalanceContract,
  creditPackages: creditPackagesContract,
  creditHistory: creditHistoryContract,
  transactions: transactionsContract,
  purchaseCredits: purchaseCreditsContract,
  createCheckoutSession: createCheckoutSessionContract,
  processPayment: processPaymentContract,
  customerPortal: customerPortalContract,
  billingPortalStatus: billingPortalStatusContract,
  stripeWebhook: stripeWebhookContract,
  devCheckoutSession: devCheckoutSessionContract,
  devCheckoutComplete: devCheckoutCompleteContract,
  devCheckoutCancel: devCheckoutCancelContract,
  pendingReviews: pendingReviewsContract,
  createReview: createReviewContract,
  reviewSummary: reviewSummaryContract,
  listImages: listImagesContract,
  imagesByModel: imagesByModelContract,
  saveImage: saveImageContract,
  unsaveImage: unsaveImageContract,
  deleteImage: deleteImageContract,
  favoriteImage: favoriteImageContract,
  unfavoriteImage: unfavoriteImageContract,
  publishExample: publishExampleContract,
  unpublishExample: unpublishExampleContract,
  trackDownload: trackDownloadContract,
  listExamples: listExamplesContract,
  exampleCategories: exampleCategoriesContract,
  counter: counterContract,
  tools: toolsContract,
  editImage: editImageContract,
  editImageFile: editImageFileContract,
  copyStyle: copyStyleContract,
  productHolding: productHoldingContract,
  upscale: upscaleContract,
  animate: animateContract,
  videos: videosContract,
  deleteVideo: deleteVideoContract,
  saveVideo: saveVideoContract,
  unsaveVideo: unsaveVideoContract,
  toolRuns: toolRunsContract,
  uploadImage: uploadImageContract,
  convertPreview: convertPreviewContract,
  falWebhook: falWebhookContract,
  replicateWebhook: replicateWebhookContract,
  publicConfig: publicConfigContract,
  legalDocument: legalDocumentContract,
} satisfies Record<string, Contract>;
