/** The classes the nudity classifier scores, in the model's output order. */
export const NUDITY_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;

export type NudityClass = (typeof NUDITY_CLASSES)[number];

/** A probability per class; the five sum to 1. */
export type NudityScores = Record<NudityClass, number>;

/**
 * Scores an encoded image (any format sharp reads) for sexual content. Deciding what a score means
 * (refuse, withhold, allow) belongs to the safety policy, not to the classifier.
 */
export interface ImageClassifier {
  classify(image: Buffer): Promise<NudityScores>;
}
