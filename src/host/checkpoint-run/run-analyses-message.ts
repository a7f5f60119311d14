// What a model spec asks its run for beyond the attention (its "target", "contrast", "patchFrom",
// "generate"), and what the model views are told of the answer: the attribution, the patching scores
// and the generated tokens, with the step of the generation they show. Pure (no VS Code), for the session.
import type { ModelSpec } from '../../core/checkpoint-spec/read-model.js';
import type { ModelHostMessage } from '../../protocol/model-editor.js';
import type { RunAnalysisRequest, RunReport } from '../../protocol/checkpoint-run.js';

type AnalysesMessage = Extract<ModelHostMessage, { type: 'analyses' }>;

/** The run's request for the spec's analyses, or undefined when it asks for none (a plain run). */
export function analysisRequest(spec: ModelSpec): RunAnalysisRequest | undefined {
  const { target, contrast, patchFrom, generate } = spec;
  const request: RunAnalysisRequest = {
    ...(target !== undefined ? { target } : {}), ...(contrast !== undefined ? { contrast } : {}),
    ...(patchFrom !== undefined ? { patchFrom } : {}), ...(generate ? { generate } : {}),
  };
  return Object.keys(request).length > 0 ? request : undefined;
}

/** What the views are told of a run's analyses: always (the views say what a spec did not ask for), the whole run shown. */
export function analysesMessage(spec: ModelSpec, report: RunReport): AnalysesMessage {
  const positions = report.ids.length;
  return {
    type: 'analyses', positions, shown: positions,
    ...(spec.target !== undefined ? { target: spec.target } : {}),
    ...(spec.contrast !== undefined ? { contrast: spec.contrast } : {}),
    ...(spec.patchFrom !== undefined ? { patchFrom: true } : {}),
    ...(report.attribution ? { attribution: report.attribution } : {}),
    ...(report.patching ? { patching: report.patching } : {}),
    ...(report.generated?.length ? { generated: report.generated } : {}),
  };
}

/** Why the views cannot step to `tokens` positions (the text's own tokens up to the whole run), or undefined. */
export function stepProblem(analyses: AnalysesMessage | undefined, tokens: number): string | undefined {
  if (!analyses) return 'no run yet';
  const generated = analyses.generated?.length ?? 0;
  const from = analyses.positions - generated;
  if (generated === 0) return 'the run generated no tokens to step through';
  return Number.isInteger(tokens) && tokens >= from && tokens <= analyses.positions ? undefined : `a step to ${tokens} tokens, outside the run's ${from} … ${analyses.positions}`;
}
