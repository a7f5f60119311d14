// A spec that runs a real model on a text instead of computing attention from written-out weights:
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
}

/** Keys a model spec may have. */
export const MODEL_SPEC_KEYS = new Set(['$schema', 'title', 'description', 'model', 'text', 'maxTokens']);

/** The longest text a spec may hold (the JSON's own 8 MB cap aside): a few pages, not a corpus. */
export const MAX_MODEL_TEXT = 1_000_000;
/** The most tokens a run may keep (the model views open up to 4,096). */
export const MAX_MODEL_TOKENS = 4096;

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
  if (model === undefined || text === undefined || r.problems.some((p) => p.severity === 'error')) return undefined;
  return {
    model, text, modelSpan: spanOf(modelNode), textSpan: spanOf(textNode!),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

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

