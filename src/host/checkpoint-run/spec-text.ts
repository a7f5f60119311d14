// A model spec ({ "model", "text", "maxTokens" }) read on the extension host's own thread. It is three
// fields: reading it is a parse of a short text (tens of microseconds), while asking the analysis
// worker costs a round trip queued behind whatever spec that worker is computing (seconds for a big
// one) and a worker start when none runs yet. What it finds is what the analysis finds (the same
// core readers, in the same order as core/spec/read.ts: the JSON, its duplicate keys, then
// readModelSpec). A text that does not look like a model spec, or is too long or has too much
// structure to parse here without stalling the host, is left to the analysis worker (undefined),
// which reads every kind of spec.
import { childAt, parseJson } from '../../core/json/json-tree.js';
import type { Problem } from '../../core/json/problems.js';
import { MAX_MODEL_TEXT, readModelSpec, type ModelSpec } from '../../core/checkpoint-spec/read-model.js';
import { reportDuplicateKeys } from '../../core/spec/read/duplicates.js';
import { Reader } from '../../core/spec/read/values.js';

export interface ModelSpecRead {
  /** The spec, when it runs (no errors). */
  model?: ModelSpec;
  problems: Problem[];
}

/**
 * The longest text read here: a model spec with the longest text it may hold, written plainly
 * (parsing 2.5 MB takes about 100 ms, so a bigger one goes to the worker).
 */
export const HOST_READ_MAX = MAX_MODEL_TEXT + 64 * 1024;

/**
 * The most characters outside strings read here. A model spec's bulk is its text, one string, and its
 * structure a few keys; the parse's cost grows with the structure (a node per value, a problem per
 * repeated key or stray comma: a megabyte of `[1,1,…]` or of repeated keys took most of a second
 * on the host's thread), so a text with more is left to the worker, found by one scan that stops at
 * the limit before anything is parsed.
 */
export const HOST_STRUCTURE_MAX = 16 * 1024;

/** Whether `text` has more than `limit` characters outside its strings (quotes and escapes followed). */
function structureOver(text: string, limit: number): boolean {
  let outside = 0, inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else {
      if (c === 0x22) inString = true;
      if (++outside > limit) return true;
    }
  }
  return false;
}

/** A "model" key somewhere: a spec without one is not a model spec, and is not parsed here. */
const MODEL_KEY = /"model"\s*:/;

/** The model spec in `text`, read here; undefined when it is not one (or too long): ask the analysis. */
export function readModelSpecText(text: string): ModelSpecRead | undefined {
  if (text.length > HOST_READ_MAX || !MODEL_KEY.test(text) || structureOver(text, HOST_STRUCTURE_MAX)) return undefined;
  const parsed = parseJson(text);
  // A model spec mid-edit (an unterminated string) does not run: its parse problems say why, as the analysis would.
  if (!parsed.root || parsed.problems.length > 0) return { problems: parsed.problems };
  const root = parsed.root;
  if (root.type !== 'object' || childAt(root, 'attention') || !childAt(root, 'model')) return undefined;
  const r = new Reader(text);
  reportDuplicateKeys(r, root, text);
  const model = readModelSpec(r, root);
  return { ...(model ? { model } : {}), problems: r.problems };
}
