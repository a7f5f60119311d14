// The core's front door: read a spec's text, compute its attention, and hand back both the
// typed result and its plain-JSON form. Callers (the extension host, the CLI) stay thin.
import { computeAttention, type AttentionResult } from './attention.js';
import { toJson, type AttentionJson } from './result-json.js';
import { readSpec, type ReadOptions } from './read.js';
import type { Problem } from './problems.js';
import type { Spec } from './spec.js';

export interface Analysis {
  spec?: Spec;
  result?: AttentionResult;
  json?: AttentionJson;
  /** Reader problems, then compute warnings (such as fully masked rows) placed on their input. */
  problems: Problem[];
}

export function analyze(text: string, options: ReadOptions = {}): Analysis {
  const { spec, problems } = readSpec(text, options);
  if (!spec) return { problems };
  const result = computeAttention(spec);
  const warnings: Problem[] = result.warnings.map((w) => ({
    severity: 'warning',
    path: `inputs[${w.input}].tokens[${w.query}]`,
    message: `head "${spec.heads[w.head].name}": ${w.message}`,
    span: spec.inputs[w.input].tokens[w.query].span ?? { offset: 0, length: 1 },
  }));
  return { spec, result, json: toJson(spec, result), problems: [...problems, ...warnings] };
}

export { readSpec } from './read.js';
export { computeAttention, scoreTerms } from './attention.js';
export { toJson } from './result-json.js';
export { formatProblem, positionAt, hasErrors } from './problems.js';
export { locate } from './locate.js';
export type { AttentionJson } from './result-json.js';
export type { AttentionResult, HeadResult, InputResult } from './attention.js';
export type { Problem } from './problems.js';
export type { Spec } from './spec.js';
