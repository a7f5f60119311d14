// What each head statistic of the finder and the grid measures, in words for the screen (the
// formulas are in src/core/tensors/head-stats.ts). Each is a mean over the head's query rows.
import type { StatName } from '../../../src/core/tensors/head-stats.js';

/** One line a statistic: what it measures, plainly. */
export const STAT_DEFINITIONS: Readonly<Record<StatName, string>> = {
  entropy: 'how spread each row\'s weight is (−Σ w·ln w; 0 when all of it is on one token)',
  confidence: 'the weight on each row\'s strongest token',
  distance: 'how many tokens away the weight lies, on average',
  previousToken: 'the weight on the token just before',
  duplicateToken: 'the weight on earlier copies of the same token (— when no token repeats)',
  induction: 'the weight on the token after an earlier copy of the same token (— when no token repeats)',
  sink: 'the weight parked on the first token',
};

/** What the legend says before the definitions. */
export const STAT_LEGEND_TITLE = 'each column is a mean over the head\'s rows (queries):';
