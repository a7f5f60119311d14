// A spec that runs a real model on a text instead of computing attention from written-out weights
// (and may ask the run for more: "target", "contrast", "patchFrom", "generate"):
//   { "model": "models/tiny-gpt2", "text": "The cat sat on the mat. The cat", "maxTokens": 64 }
// "model" names a checkpoint folder (beside the spec or below it), a model id in the Hugging Face
// cache ("gpt2", "org/name"), or, in a trusted workspace only, an absolute path: where it may point
// is decided by core/checkpoint-files/model-folder.ts, which knows the disk; here only its form is checked, so
// the CLI, the diagnostics and the panel report the same problems at the same place.
import { childAt, type Node } from '../json/json-tree.js';
import type { Problem } from '../json/problems.js';
import { describe, spanOf, type Reader } from '../spec/read/values.js';
import type { Span } from '../spec/spec.js';

export interface ModelSpec {
  /** The model as written: a folder, a cache id or an absolute path (resolved by model-folder.ts). */
  readonly model: string;
  readonly text: string;
  /** Keep only the first N tokens; absent: the model's context length is the limit. */
  readonly maxTokens?: number;
  readonly title?: string;
  readonly description?: string;
  /** Where "model" is written: problems with the folder and the run are reported there. */
  readonly modelSpan: Span;
  readonly textSpan: Span;
  /** What the run is asked beyond its attention (model-analysis/types.ts): each only when the spec gives it. */
  readonly target?: string;
  readonly contrast?: string;
  readonly patchFrom?: string;
  readonly generate?: number;
  /** Where each of those is written: a run's problem with one of them (a target of two tokens) goes there. */
  readonly analysisSpans?: Partial<Record<AnalysisKey, Span>>;
}

/** The spec's keys that ask a run for more than its attention. */
export const ANALYSIS_KEYS = ['target', 'contrast', 'patchFrom', 'generate'] as const;
export type AnalysisKey = (typeof ANALYSIS_KEYS)[number];

/** Keys a model spec may have. */
export const MODEL_SPEC_KEYS = new Set(['$schema', 'title', 'description', 'model', 'text', 'maxTokens', ...ANALYSIS_KEYS]);

/** The longest text a spec may hold (the JSON's own 8 MB cap aside): a few pages, not a corpus. */
export const MAX_MODEL_TEXT = 1_000_000;
/**
 * The most tokens a run may keep: 8,192 through a whole model (past the dense size a run keeps each
 * layer's q and k, not every head's n × n; the run's own budget refuses what its model cannot hold).
 */
export const MAX_MODEL_TOKENS = 8192;
/** The most new tokens a spec may ask to generate (each one a pass over one position). */
export const MAX_GENERATE = 256;

export function readModelSpec(r: Reader, root: Node): ModelSpec | undefined {
  r.unknownKeys(root, [], MODEL_SPEC_KEYS);
  const modelNode = childAt(root, 'model')!;
  const model = r.string(modelNode, ['model'], 'a model: a folder beside the spec, a Hugging Face model id ("gpt2"), or an absolute path');
  const textNode = childAt(root, 'text');
  if (!textNode) r.error(r.rootKeySpan(root), ['text'], 'missing "text": the text the model reads');
  const text = textNode ? r.string(textNode, ['text'], 'the text the model reads') : undefined;
  if (text !== undefined && text.length === 0) r.error(textNode!, ['text'], 'the text is empty: give the model something to read');
  if (text !== undefined && text.length > MAX_MODEL_TEXT) r.error(textNode!, ['text'], `${text.length.toLocaleString('en-US')} characters, over the ${MAX_MODEL_TEXT.toLocaleString('en-US')} a spec's text may hold`);
  if (model !== undefined && model.trim().length === 0) r.error(modelNode, ['model'], 'the model is empty: name a folder or a model id');
  if (model !== undefined && model.includes('\0')) r.error(modelNode, ['model'], 'the model name holds a NUL character');
  const maxNode = childAt(root, 'maxTokens');
  let maxTokens: number | undefined;
  if (maxNode) {
    const v = r.number(maxNode, ['maxTokens']);
    if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > MAX_MODEL_TOKENS)) r.error(maxNode, ['maxTokens'], `expected a whole number from 1 to ${MAX_MODEL_TOKENS}, got ${v}`);
    else maxTokens = v;
  }
  const title = optionalString(r, root, 'title');
  const description = optionalString(r, root, 'description');
  const asked = readAnalysis(r, root);
  if (model === undefined || text === undefined || r.problems.some((p) => p.severity === 'error')) return undefined;
  return {
    model, text, modelSpan: spanOf(modelNode), textSpan: spanOf(textNode!),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...asked,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/**
 * "target" and "contrast" (a token: its text, which the run checks is one token, or its id as digits
 * or a whole number), "patchFrom" (the corrupted text of activation patching, which needs both) and
 * "generate" (greedy new tokens, 0 … MAX_GENERATE). Only their form is checked here: whether a text is
 * one token is the tokenizer's to say, and the run's problem is put on the value (analysisSpans).
 */
function readAnalysis(r: Reader, root: Node): Pick<ModelSpec, AnalysisKey | 'analysisSpans'> {
  const spans: Partial<Record<AnalysisKey, Span>> = {};
  const token = (key: 'target' | 'contrast'): string | undefined => {
    const node = childAt(root, key);
    if (!node) return undefined;
    spans[key] = spanOf(node);
    const what = 'a token: its text (one token of the model\'s vocabulary) or its id';
    if (node.type === 'number') {
      const v = node.value as number;
      if (Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER) return String(v);
      return r.error(node, [key], `expected ${what}, got ${v}`);
    }
    if (node.type !== 'string') return r.error(node, [key], `expected ${what}, got ${describe(node)}`);
    const v = node.value as string;
    if (v.length === 0) return r.error(node, [key], `the ${key} is empty: give ${what}`);
    if (v.length > MAX_TOKEN_TEXT) return r.error(node, [key], `${v.length.toLocaleString('en-US')} characters, over the ${MAX_TOKEN_TEXT} a token's text may hold`);
    return v;
  };
  const target = token('target');
  const contrast = token('contrast');
  if (contrast !== undefined && target === undefined && !childAt(root, 'target')) r.error(childAt(root, 'contrast')!, ['contrast'], 'a contrast needs a "target": the logit difference is target − contrast');
  const patchNode = childAt(root, 'patchFrom');
  let patchFrom: string | undefined;
  if (patchNode) {
    spans.patchFrom = spanOf(patchNode);
    patchFrom = r.string(patchNode, ['patchFrom'], 'the corrupted text: the same number of tokens as "text"');
    if (patchFrom !== undefined && patchFrom.length === 0) patchFrom = r.error(patchNode, ['patchFrom'], 'the corrupted text is empty');
    else if (patchFrom !== undefined && patchFrom.length > MAX_MODEL_TEXT) patchFrom = r.error(patchNode, ['patchFrom'], `${patchFrom.length.toLocaleString('en-US')} characters, over the ${MAX_MODEL_TEXT.toLocaleString('en-US')} a spec's text may hold`);
    else if (patchFrom !== undefined && (!childAt(root, 'target') || !childAt(root, 'contrast'))) {
      patchFrom = r.error(patchNode, ['patchFrom'], 'activation patching needs "target" and "contrast": each head is scored by how much of the target − contrast logit difference it brings back');
    }
  }
  const generateNode = childAt(root, 'generate');
  let generate: number | undefined;
  if (generateNode) {
    spans.generate = spanOf(generateNode);
    const v = r.number(generateNode, ['generate']);
    if (v !== undefined && (!Number.isInteger(v) || v < 0 || v > MAX_GENERATE)) r.error(generateNode, ['generate'], `expected a whole number of new tokens from 0 to ${MAX_GENERATE}, got ${v}`);
    else if (v !== undefined && v > 0 && patchNode) r.error(generateNode, ['generate'], 'generation cannot go with "patchFrom": patching compares two texts of the same tokens');
    else generate = v;
  }
  return {
    ...(target !== undefined ? { target } : {}),
    ...(contrast !== undefined ? { contrast } : {}),
    ...(patchFrom !== undefined ? { patchFrom } : {}),
    ...(generate !== undefined ? { generate } : {}),
    ...(Object.keys(spans).length > 0 ? { analysisSpans: spans } : {}),
  };
}

/**
 * Which of the spec's analysis keys a run's problem is about (a target that is two tokens, a text to
 * patch from of another length), so it is put on that value; undefined for a problem of the model.
 * The messages are core/model-analysis's (token-argument.ts, analyze-text.ts).
 */
export function analysisKeyOf(message: string): AnalysisKey | undefined {
  if (/^the target token\b/.test(message)) return 'target';
  if (/^(the contrast token|a contrast token)\b/.test(message)) return 'contrast';
  if (/^(the text to patch from|patching)\b/.test(message)) return 'patchFrom';
  if (/^generation\b|\b\d+ generated are more\b/.test(message)) return 'generate';
  return undefined;
}

/** The longest text a target or contrast may be (one token's text is a few characters; a long one is a mistake). */
const MAX_TOKEN_TEXT = 1000;

function optionalString(r: Reader, root: Node, key: string): string | undefined {
  const node = childAt(root, key);
  if (!node) return undefined;
  if (node.type !== 'string') return r.error(node, [key], `expected a string, got ${describe(node)}`);
  return node.value as string;
}

/**
 * What the model views say when an edit leaves the spec unable to run: its first error (mid-typing, an
 * unterminated string), the Problems panel holding them all; only a spec without errors that no longer
 * names a model is told to give "model" and "text" (it had said so for a broken JSON too, whose
 * "model" and "text" were right there).
 */
export function notRunningReason(problems: readonly Problem[]): string {
  const first = problems.find((p) => p.severity === 'error');
  if (first) return `this spec does not run now: ${first.message} (see the Problems panel)`;
  return 'this spec no longer runs a model: give "model" and "text" (see the Problems panel)';
}

