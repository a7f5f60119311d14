// What the model editor's shell does with a run's analyses before a view draws: the view's data gets
// them, with the generated tokens marked in the token texts every view labels from; the step slider
// is told where the generation stands. Apart from app.ts so it is tested without a page.
import type { ModelRunInfo, ModelViewData } from '../../src/core/model-attention/data.js';
import type { RunAnalyses } from '../../src/core/model-attention/run-analyses.js';
import { markGenerated } from '../views/model/common.js';

/** Whether two run messages are of one run (told again when its views reopen) rather than a new run. */
export function sameRun(a: ModelRunInfo, b: ModelRunInfo): boolean {
  return a.model === b.model && a.forwardMs === b.forwardMs && a.precision === b.precision && JSON.stringify(a.next) === JSON.stringify(b.next);
}

/** The view's data with the run's analyses, its generated tokens marked in the header's token texts. */
export function viewData(data: ModelViewData, analyses: RunAnalyses | undefined): ModelViewData {
  if (!analyses) return data;
  const generated = analyses.generated?.length ?? 0;
  if (generated === 0 || data.header.tokenTexts.length === 0) return { ...data, analyses };
  const from = analyses.positions - generated;
  return { ...data, analyses, header: { ...data.header, tokenTexts: markGenerated(data.header.tokenTexts, from) as string[] } };
}

/** Where the slider through the generated tokens stands, or undefined when the run generated none. */
export interface GenerationStep {
  /** The text's own tokens (the slider's start) and the whole run (its end). */
  from: number;
  to: number;
  /** The tokens the views show now. */
  shown: number;
  /** What the slider says: "2 of 5: " sat"". */
  says: string;
}

export function generationStep(analyses: RunAnalyses, shownTokens: number): GenerationStep | undefined {
  const generated = analyses.generated ?? [];
  if (generated.length === 0) return undefined;
  const to = analyses.positions, from = to - generated.length;
  const shown = Math.max(from, Math.min(to, shownTokens));
  const k = shown - from;
  const says = k === 0 ? `0 of ${generated.length}: the text alone` : `${k} of ${generated.length}: ${JSON.stringify(generated[k - 1].token)}`;
  return { from, to, shown, says };
}
