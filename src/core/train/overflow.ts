// The sentence for a run whose loss is not finite before its first step: the spec's own numbers
// overflow, whatever the rate. It names the target whose term overflowed (the learner's goal, in
// words) and what to change, for attn train and for the Training view, which has nothing to play.
import type { Spec, TrainSpec } from '../spec/spec.js';
import { quote } from '../json/quote.js';

/** "target 2 of 3 ("watch" → "apple" in input "s")": a target as the learner wrote it. */
export function targetName(spec: Spec, train: TrainSpec, g: number): string {
  const t = train.targets[g];
  const input = spec.inputs[t.input];
  const token = (i: number) => quote(input.tokens[i]?.text ?? String(i));
  const what = t.kind === 'attention' ? `${token(t.query)} → ${token(t.key)}` : `the output of ${token(t.query)}`;
  return `target ${g + 1} of ${train.targets.length} (${what} in input ${quote(input.name)})`;
}

/** Why a run cannot start: its loss overflows at step 0, at `target` (undefined: no single target's term was found). */
export function startOverflow(spec: Spec, train: TrainSpec, target: number | undefined): string {
  const head = quote(spec.heads[train.head]?.name ?? String(train.head));
  const t = target === undefined ? undefined : train.targets[target];
  const where = target === undefined ? 'the loss' : `the loss of ${targetName(spec, train, target)}`;
  const fix = t?.kind === 'output'
    ? `use a smaller "output" for it, or smaller embeddings or W_V in head ${head}`
    : `use smaller embeddings or W_Q and W_K in head ${head}${spec.scale.kind === 'number' ? ', or a larger "scale"' : ''}`;
  return `${where} overflows before the first step (the spec's numbers are too large as they are, so no rate can train them): ${fix}`;
}
