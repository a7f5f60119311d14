// The core's front door: read a spec's text, compute its attention, and hand back its result
// model (AttentionData, what every reader reads), plus the plain-JSON form when `attn compute
// --json` asks. Callers (the extension host's analysis worker, the CLI) stay thin.
import { computeAttention, type AttentionResult, type HeadsHelper, type Progress } from './attention/attention.js';
import { dataToJson, type AttentionJson } from './result/result-json.js';
import { attentionData, type AttentionData } from './result/attention-data.js';
import { linalgData } from './result/linalg-data.js';
import { findOverflow, type Overflow } from './attention/overflow.js';
import { readSpec, type ReadOptions } from './spec/read.js';
import type { AttentionReference } from './spec/read/reference.js';
import type { ModelSpec } from './checkpoint-spec/read-model.js';
import { storyOf, type SpecStory } from './spec/read/story.js';
import { overBudget, PRINTED, printedNumbers } from './budget.js';
import type { Problem } from './json/problems.js';
import type { Spec } from './spec/spec.js';
import { quote } from './json/quote.js';

export interface Analysis {
  spec?: Spec;
  /** The compute's working result (scaled scores included), which `data` shares. */
  result?: AttentionResult;
  /** The typed result model: what the panel, hovers and `attn render` read. */
  data?: AttentionData;
  /** Arrays of rows, only when asked for (options.json): what `attn compute --json` prints. */
  json?: AttentionJson;
  /** A spec that names a model's attention file: shown by the model views, nothing computed here. */
  reference?: AttentionReference;
  /** A spec that runs a real model on a text: run by the host (or `attn run`), nothing computed here. */
  model?: ModelSpec;
  /** The spec's description, where the panel opens and the spec that comes next, when it names any. */
  story?: SpecStory;
  /** Reader problems, then compute warnings (such as fully masked rows) placed on their input. */
  problems: Problem[];
}

export interface AnalyzeOptions extends ReadOptions {
  /** true: also build the arrays-of-rows form (it costs more than the math at large n, so only `attn compute --json` asks). */
  json?: boolean;
  /** true: also the numbers of the linear-algebra views (the panel and attn render ask; validate does not). */
  linalg?: boolean;
  /** Called as heads are computed (done, total), so long work can say how far it is. */
  onProgress?: Progress;
  /** A second thread for half the heads (core/threads/heads-thread.ts), where the caller has one. */
  helper?: HeadsHelper;
}

export function analyze(text: string, options: AnalyzeOptions = {}): Analysis {
  const { spec, problems, reference, model } = readSpec(text, options);
  if (reference) return { reference, problems };
  if (model) return { model, problems };
  if (!spec) return { problems };
  const result = computeAttention(spec, { helper: options.helper, onProgress: options.onProgress });
  const overflow = findOverflow(result);
  if (overflow) return { spec, problems: [...problems, overflowProblem(spec, overflow)] };
  // A mask belongs to the input, so a fully masked row is the same in every head: say it once.
  const seen = new Set<string>();
  const warnings: Problem[] = [];
  for (const w of result.warnings) {
    const key = `${w.input}:${w.query}`;
    if (seen.has(key)) continue;
    seen.add(key);
    warnings.push({
      severity: 'warning',
      path: `inputs[${w.input}].tokens[${w.query}]`,
      message: w.message,
      span: spec.inputs[w.input].tokens[w.query].span ?? { offset: 0, length: 1 },
    });
  }
  const base = attentionData(spec, result);
  const data = options.linalg ? { ...base, linalg: linalgData(spec, base) } : base;
  const tooMuch = options.json === true ? printedProblem(spec) : undefined;
  const json = options.json === true && !tooMuch ? dataToJson(data) : undefined;
  const story = storyOf(spec);
  return { spec, result, data, ...(json ? { json } : {}), ...(story ? { story } : {}), problems: [...problems, ...warnings, ...(tooMuch ? [tooMuch] : [])] };
}

/** Every number of every step, printed, is more than the PRINTED budget: an error at the first input, before any is written. */
function printedProblem(spec: Spec): Problem | undefined {
  const heads = spec.heads.map((h) => ({ dk: h.wq.matrix.cols, dv: h.wv.matrix.cols }));
  const cost = printedNumbers(spec.dModel, spec.inputs.map((i) => i.tokens.length), heads, spec.wo !== undefined);
  const message = overBudget(PRINTED, cost, `${spec.inputs.length} input(s) at d_model ${spec.dModel.toLocaleString('en-US')}`, 'attn validate checks it without printing; print fewer inputs, tokens or dimensions');
  return message ? { severity: 'error', path: 'inputs', message, span: spec.inputs[0]?.span ?? { offset: 0, length: 1 } } : undefined;
}

/** Placed on the head (or W_O) that produced it, else on the input: the nearest thing the user wrote. */
function overflowProblem(spec: Spec, o: Overflow): Problem {
  const input = spec.inputs[o.input];
  const token = input.tokens[o.row]?.text ?? '';
  const head = o.head === undefined ? undefined : spec.heads[o.head];
  const where = head ? `${o.what} of ${quote(token)} in head ${quote(head.name)}` : `the output of ${quote(token)} after W_O`;
  const hint = o.what === 'scaled' ? 'the scale divides the scores by too small a number' : 'use smaller embeddings or weights';
  // A number scale that turned finite scores into infinite scaled ones is the culprit: point at it.
  const byScale = o.what === 'scaled' && spec.scale.kind === 'number' && spec.scale.span ? spec.scale.span : undefined;
  const span = byScale ?? (head ? (spec.headsGiven ? head.span : undefined) : spec.wo?.span) ?? input.span ?? { offset: 0, length: 1 };
  const path = byScale ? 'scale' : head ? (spec.headsGiven ? `heads[${o.head}]` : `inputs[${o.input}]`) : 'wo';
  return { severity: 'error', path, span, message: `the numbers grow too large to compute: ${where} ${Number.isFinite(o.value) ? `is ${o.value}` : 'overflows past the largest number (±1.8e308)'}; ${hint}` };
}

export { readSpec } from './spec/read.js';
export { computeAttention, scoreTerms } from './attention/attention.js';
export { toJson } from './result/result-json.js';
export { formatProblem, positionAt, hasErrors } from './json/problems.js';
export { locate } from './json/locate.js';
export type { AttentionJson } from './result/result-json.js';
export type { AttentionData, HeadData, InputData, WeightData } from './result/attention-data.js';
export type { AttentionResult, HeadResult, InputResult } from './attention/attention.js';
export type { Problem } from './json/problems.js';
export type { Spec } from './spec/spec.js';
