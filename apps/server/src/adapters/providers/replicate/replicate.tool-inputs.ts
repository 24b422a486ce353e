/** Pieces of Replicate model inputs that tools share (tools/*.ts hold each tool's input). */

/** The vendor name in Replicate's error messages. */
export const REPLICATE = 'replicate';
