// The spec reader: text in, a validated Spec or a list of problems out. It never throws on
// bad input; every check adds a problem with its JSON path and exact range and carries on,
// so the user sees all of them at once. Each part of the spec has its own read-*.ts file.
import { readReference, type AttentionReference } from './read/reference.js';
import type { TensorFiles } from '../files/spec-files.js';
import { childAt, parseJson, DEFAULT_MAX_BYTES } from '../json/json-tree.js';
import type { Problem } from '../json/problems.js';
import type { Spec, WeightMatrix } from './spec.js';
import { describe, Reader } from './read/values.js';
import { readDimensions } from './read/dimensions.js';
import { readEmbeddings, readInputs } from './read/inputs.js';
import { readHeads, readMask, readScale, readWeight } from './read/heads.js';
import { readViews } from './read/views.js';
import { readTrain } from './read/train.js';
import { reportDuplicateKeys } from './read/duplicates.js';
import { identityOverLimit, overLimit } from './read/limits.js';
import { valuesOverLimit } from './read/size.js';
import { readStory } from './read/story.js';
import { readModelSpec, type ModelSpec } from '../checkpoint-spec/read-model.js';

export { MAX_TOKENS } from './read/inputs.js';
export { MAX_CELLS, MAX_WORK } from './read/limits.js';

/** The keys of a spec that computes attention (a reference spec's and a model spec's are their readers'). */
export const TOP_LEVEL = new Set(['$schema', 'title', 'description', 'open', 'next', 'features', 'embeddings', 'inputs', 'heads', 'wo', 'scale', 'mask', 'views', 'train']);

export interface ReadOptions {
  maxBytes?: number;
  /** Where tensor files named by the spec are opened (the spec's folder); absent when it is not on disk. */
  files?: TensorFiles;
}

export interface ReadResult {
  spec?: Spec;
  problems: Problem[];
  /** A spec that names a model's attention file instead of computing attention (read/reference.ts). */
  reference?: AttentionReference;
  /** A spec that runs a real model on a text (read-model.ts): the model views show the run. */
  model?: ModelSpec;
}

export function readSpec(text: string, options: ReadOptions = {}): ReadResult {
  // Counted before the tree is built: the tree, not the text, is what a big spec costs.
  const tooMany = utf8Within(text, options.maxBytes ?? DEFAULT_MAX_BYTES) ? valuesOverLimit(text) : undefined;
  if (tooMany) return { problems: [tooMany] };
  const parsed = parseJson(text, options.maxBytes ?? DEFAULT_MAX_BYTES);
  if (!parsed.root || parsed.problems.length > 0) return { problems: parsed.problems };
  const root = parsed.root;
  const r = new Reader(text, options.files);
  if (root.type !== 'object') {
    r.error(root, [], `expected a JSON object with "embeddings" and "inputs", got ${describe(root)}`);
    return { problems: r.problems };
  }
  reportDuplicateKeys(r, root, text);
  if (childAt(root, 'attention')) {
    const reference = readReference(r, root);
    return { ...(reference && !r.problems.some((p) => p.severity === 'error') ? { reference } : {}), problems: r.problems };
  }
  if (childAt(root, 'model')) {
    const model = readModelSpec(r, root);
    return { ...(model ? { model } : {}), problems: r.problems };
  }
  r.unknownKeys(root, [], TOP_LEVEL);

  const titleNode = childAt(root, 'title');
  const title = titleNode ? r.string(titleNode, ['title']) : undefined;
  const dims = readDimensions(r, root);
  if (!dims) return { problems: r.problems };
  const vocabulary = readEmbeddings(r, root, dims);
  const inputs = readInputs(r, root, vocabulary, dims);
  const generated = { cells: 0 }; // numbers drawn for { "init" } weights, against one cap for the whole spec
  const heads = readHeads(r, root, dims, generated);
  const woNode = childAt(root, 'wo');
  let wo: WeightMatrix | undefined;
  if (woNode && heads) {
    const width = heads.heads.reduce((s, h) => s + h.wv.matrix.cols, 0);
    const what = heads.heads.length === 1 ? 'd_v of the one head' : `the heads' d_v added up: ${heads.heads.map((h) => h.wv.matrix.cols).join(' + ')}`;
    const tooBig = woNode.type === 'string' && woNode.value === 'identity' ? identityOverLimit([width], `W_O as the identity, ${width} × ${width},`) : undefined;
    if (tooBig) r.error(woNode, ['wo'], tooBig);
    else wo = readWeight(r, woNode, ['wo'], { count: width, what }, generated, { count: dims.dModel, what: 'd_model: W_O maps the heads\' outputs back to d_model' });
  }
  const scale = readScale(r, root);
  const mask = readMask(r, root);
  const views = readViews(r, root, dims);
  // Training is read once the heads, inputs and mask it refers to are known.
  const train = inputs && heads && mask ? readTrain(r, root, { inputs, heads: heads.heads, mask, dModel: dims.dModel }) : null;
  const story = readStory(r, root, { ...(inputs ? { inputs } : {}), ...(heads ? { heads: heads.heads } : {}), hasWo: Boolean(wo) });

  const hasErrors = r.problems.some((p) => p.severity === 'error');
  if (hasErrors || !inputs || !heads || !scale || !mask || !views || (woNode && !wo) || train === undefined || !story) return { problems: r.problems };
  const tooBig = overLimit(inputs, heads.heads, dims.dModel);
  if (tooBig) {
    r.error(childAt(root, 'inputs')!, ['inputs'], tooBig);
    return { problems: r.problems };
  }
  const spec: Spec = {
    ...(title !== undefined ? { title } : {}),
    ...(story.description !== undefined ? { description: story.description } : {}),
    ...(story.open ? { open: story.open } : {}),
    ...(story.next !== undefined ? { next: story.next } : {}),
    dModel: dims.dModel,
    features: dims.features,
    featuresGiven: dims.featuresGiven,
    embeddings: vocabulary.table,
    inputs,
    heads: heads.heads,
    headsGiven: heads.given,
    ...(wo ? { wo } : {}),
    scale,
    mask,
    views,
    ...(train ? { train } : {}),
  };
  return { spec, problems: r.problems };
}

/** True when the text is not obviously over the byte cap (its UTF-16 length is a lower bound of its UTF-8 bytes): the cap's own message comes first. */
const utf8Within = (text: string, maxBytes: number) => text.length <= maxBytes;
