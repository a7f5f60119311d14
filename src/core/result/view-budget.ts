// The spec views' budgets from the data's shapes, for whatever draws them (attn render on jsdom, the
// panel's webview): a view whose SVG grows with the inputs times the features is measured before a
// single element is made. Pure: the webview may call it too.
import type { AttentionData } from './attention-data.js';
import { COMPARE, compareElements, overBudget } from '../budget.js';

/**
 * Why the compare view of the word at (input, token) is too big to draw, or undefined: one panel per
 * input holding the word, each with its tokens and every feature. `instead` names the views to turn to
 * in the caller's words (a flag for the command line, the view's name in the panel).
 */
export function compareOverBudget(data: AttentionData, input: number, token: number, instead = 'draw --view quadrant or matrix instead'): string | undefined {
  const word = data.inputs[input]?.tokens[token];
  if (word === undefined) return undefined;
  let panels = 0, tokens = 0;
  for (const inp of data.inputs) {
    if (!inp.tokens.includes(word)) continue;
    panels++;
    tokens = Math.max(tokens, inp.tokens.length);
  }
  return overBudget(COMPARE, compareElements(panels, tokens, data.dModel), `${panels} input(s) × ${data.dModel.toLocaleString('en-US')} feature(s)`,
    `${instead}, or compare fewer inputs or features in a smaller spec`);
}
