// How long the panel waits after an edit before redrawing: half as long as the last redraw took.
// A small spec redraws in a few milliseconds, so it follows typing almost at once; a big one would
// otherwise queue redraw after redraw while the user is still typing. Half, not all: the work runs
// in the worker and the webview, not on the host's thread, and a newer edit cancels the worker's
// older job, so a shorter wait costs the editor nothing (64 × 8: edit → paint 119 → about 95 ms).

export const MIN_UPDATE_DELAY_MS = 25;
export const MAX_UPDATE_DELAY_MS = 300;
/** Before the panel has drawn anything there is no cost to go by. */
export const FIRST_UPDATE_DELAY_MS = 100;

/** `lastCostMs`: the host's analysis plus the webview's drawing, for the last version shown. */
export function updateDelay(lastCostMs: number | undefined): number {
  if (lastCostMs === undefined || !Number.isFinite(lastCostMs)) return FIRST_UPDATE_DELAY_MS;
  return Math.round(Math.min(MAX_UPDATE_DELAY_MS, Math.max(MIN_UPDATE_DELAY_MS, lastCostMs / 2)));
}
