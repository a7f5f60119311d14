// A small registry of tips for views whose hoverable elements are all different (numbers in the
// step-by-step view, cells of the projection): each element carries data-tip = its index here.
import type { Tip } from './tooltip.js';

/**
 * A tip whose lines may be written only when it is first shown: a view with thousands of cells (the
 * projection of a 512 × 64 W_Q) spent a fifth of its drawing on lines nobody had hovered yet.
 */
export type LazyTip = Omit<Tip, 'lines'> & { lines: string[] | (() => string[]) };

export class TipTable {
  private readonly tips: LazyTip[] = [];

  /** Register a tip and return the value for the element's data-tip attribute. */
  add(tip: LazyTip): number {
    this.tips.push(tip);
    return this.tips.length - 1;
  }

  get(el: Element): Tip | undefined {
    const i = Number(el.getAttribute('data-tip')?.trim() || NaN); // none or blank: no tip (Number(null) and Number('') are 0)
    const tip = Number.isInteger(i) ? this.tips[i] : undefined;
    if (!tip) return undefined;
    if (typeof tip.lines !== 'function') return tip as Tip;
    // Written once, on the first hover, and kept.
    const written: Tip = { ...tip, lines: tip.lines() };
    this.tips[i] = written;
    return written;
  }
}
