// The work budgets: what one command, view or page may cost, estimated from the shapes before any
// of it is done, so a small file that asks for a great deal gets a sentence instead of a long wait or
// an abort at the heap limit. Each budget has its cost function (from shapes alone) and says, when
// it is passed, what was asked, how much that is, the budget, and what to do instead. The spec's own
// limits (read-limits.ts) and the readers' caps stay beside what they guard; these are the costs of
// what is made from a file once it is read.

/** One budget: a name for messages, the most it allows, and the unit it counts. */
export interface Budget {
  readonly what: string;
  readonly max: number;
  readonly unit: string;
}

/**
 * The rollout multiplies one n × n matrix into another per layer: layers · n³ multiply-adds. 4 billion
 * is about 10 s on one core (16 layers × 1,024² measured 38–47 s); 12 layers × 512² is 1.6 billion.
 */
export const ROLLOUT: Budget = { what: 'the rollout', max: 4e9, unit: 'multiply-adds' };

/**
 * Numbers attn compute prints (as text or JSON): every token's x, q, k, v, scores and weights, and
 * the weight matrices. The spec's own limit of 4,194,304 attention cells prints 12.6 million of
 * them (scores, scaled, weights); 16 million leaves room for the vectors, while a 4,194,304-wide
 * embedding's 29 million (36 s and 4 GB to print before this budget) is refused.
 */
export const PRINTED: Budget = { what: 'attn compute\'s output', max: 16_000_000, unit: 'numbers' };

const count = (v: number) => (v >= 1e9 ? `${(v / 1e9).toFixed(1)} billion` : v >= 1e6 ? `${(v / 1e6).toFixed(1)} million` : Math.round(v).toLocaleString('en-US'));

/** The sentence when `cost` passes `budget` (`asked`: what was asked for, `instead`: what to do), else undefined. */
export function overBudget(budget: Budget, cost: number, asked: string, instead: string): string | undefined {
  if (cost <= budget.max) return undefined;
  return `${budget.what} of ${asked} needs ${count(cost)} ${budget.unit}, over the budget of ${count(budget.max)}: ${instead}`;
}

/** Multiply-adds of the rollout of `layers` layers of n × n. */
export const rolloutWork = (layers: number, n: number) => layers * n ** 3;

/** Numbers attn compute prints for a spec of these shapes (per input: its tokens; per head: d_k, d_v). */
export function printedNumbers(dModel: number, tokensPerInput: readonly number[], heads: readonly { dk: number; dv: number }[], withOutput: boolean): number {
  let total = 0;
  for (const h of heads) total += dModel * (2 * h.dk + h.dv);
  for (const n of tokensPerInput) {
    total += n * dModel * (withOutput ? 2 : 1);
    for (const h of heads) total += n * (2 * h.dk + 2 * h.dv) + 3 * n * n;
  }
  return total;
}
