// A small registry of tips for views whose hoverable elements are all different (numbers in the
// step-by-step view, cells of the projection): each element carries data-tip = its index here.
import type { Tip } from './tooltip.js';

export class TipTable {
  private readonly tips: Tip[] = [];

  /** Register a tip and return the value for the element's data-tip attribute. */
  add(tip: Tip): number {
    this.tips.push(tip);
    return this.tips.length - 1;
  }

  get(el: Element): Tip | undefined {
    const i = Number(el.getAttribute('data-tip')?.trim() || NaN); // none or blank: no tip (Number(null) and Number('') are 0)
    return Number.isInteger(i) ? this.tips[i] : undefined;
  }
}
