// One analysis of one spec version as it travels: the one envelope from the analysis worker (its
// 'done' reply) to the extension host (the runner's answer; the host's cache adds the model read
// back and the time it took) to the panel (whose 'render' message carries the header and buffer of
// `wire` as they are). Pure: no vscode, no Node built-ins, so it runs wherever the worker does.
import type { Analysis } from '../index.js';
import type { Problem } from '../json/problems.js';
import { encodeAttention, type WireMessage } from './wire.js';
import type { LinalgJson } from './linalg-json.js';
import type { AttentionReference } from '../spec/read/reference.js';
import type { SpecStory } from '../spec/read/story.js';
import type { ModelSpec } from '../checkpoint-spec/read-model.js';

export interface WireAnalysis {
  /** Reader problems and compute warnings, with their spans in the text. */
  problems: Problem[];
  /** The result model, serialised (a header and one buffer); absent when the spec has errors. */
  wire?: WireMessage;
  /** For a request of the linear-algebra views' numbers: those numbers (absent when the spec has errors). */
  linalg?: LinalgJson;
  /** A spec that names a model's attention file: the panel opens the model views on it. */
  reference?: AttentionReference;
  /** A spec that runs a real model on a text: the host runs it and opens the model views on the run. */
  model?: ModelSpec;
  /** The spec's description, where the panel opens on it and which spec comes next (plain data, small). */
  story?: SpecStory;
}

/** The core's analysis of a spec, packed to travel. */
export function wireAnalysis(a: Analysis): WireAnalysis {
  return {
    problems: a.problems, ...(a.data ? { wire: encodeAttention(a.data) } : {}), ...(a.reference ? { reference: a.reference } : {}),
    ...(a.model ? { model: a.model } : {}),
    ...(a.data && a.story ? { story: a.story } : {}),
  };
}

/** An analysis that could not run (the worker died, a bug): one error, at the top of the spec. */
export function failedAnalysis(message: string): WireAnalysis {
  return { problems: [{ severity: 'error', path: '', message: `internal error: ${message}`, span: { offset: 0, length: 0 } }] };
}
