// A spec that shows a model's own attention instead of computing it:
//   { "attention": { "file": "run1.safetensors", "tensor": "…" }, "tokens": ["The", "cat", …] }
// The file (.safetensors, .npy, .npz) lies in the spec's folder or below it; "tokens" names the
// positions when the file carries none. Read here, opened by the model views (attn inspect, attn
// render --view model|head|finder|rollout, and Show Attention, which opens the model editor).
import { childAt, type Node } from '../../json/json-tree.js';
import { describe, spanOf, type Reader } from './values.js';
import type { Span } from '../spec.js';
import { badFileName } from './file-name.js';
import { ATTENTION_FILE_NAME } from '../../tensors/attention-file.js';

export interface AttentionReference {
  /** The file, relative to the spec's folder (checked: no absolute path, no ".."). */
  readonly file: string;
  readonly tensor?: string;
  readonly tokens?: readonly string[];
  /** Where "file" is written: problems with the file are reported there. */
  readonly span: Span;
  /** Where "tokens" is written, when it is. */
  readonly tokensSpan?: Span;
}

/** Keys a reference spec may have. */
export const REFERENCE_KEYS = new Set(['$schema', 'title', 'description', 'attention', 'tokens']);
/** Keys of its "attention". */
export const ATTENTION_KEYS = ['file', 'tensor'] as const;

/** Tokens a reference may name (the model views open up to 4,096). */
const MAX_REFERENCE_TOKENS = 4096;

export function readReference(r: Reader, root: Node): AttentionReference | undefined {
  const node = childAt(root, 'attention')!;
  r.unknownKeys(root, [], REFERENCE_KEYS);
  if (node.type !== 'object') return r.error(node, ['attention'], `expected { "file": "…", "tensor": "…" }, got ${describe(node)}`);
  r.unknownKeys(node, ['attention'], new Set(ATTENTION_KEYS));
  const fileNode = childAt(node, 'file');
  if (!fileNode) return r.error(node, ['attention'], 'give "file": the .safetensors, .npy or .npz beside the spec that holds the attention');
  const file = r.string(fileNode, ['attention', 'file'], 'a file name beside the spec');
  if (file === undefined) return undefined;
  const bad = badFileName(file);
  if (bad) return r.error(fileNode, ['attention', 'file'], bad);
  if (!ATTENTION_FILE_NAME.test(file)) return r.error(fileNode, ['attention', 'file'], 'expected a .safetensors, .npy or .npz file');
  const tensorNode = childAt(node, 'tensor');
  const tensor = tensorNode ? r.string(tensorNode, ['attention', 'tensor'], 'the name of a tensor in the file') : undefined;
  if (tensorNode && tensor === undefined) return undefined;
  if (tensor !== undefined && /\.npy$/i.test(file)) {
    return r.error(tensorNode!, ['attention', 'tensor'], `${file} is an .npy file: it holds one unnamed array, so "tensor" ${JSON.stringify(tensor)} names nothing in it; leave out "tensor"`);
  }
  const tokensNode = childAt(root, 'tokens');
  let tokens: string[] | undefined;
  if (tokensNode) {
    if (tokensNode.type !== 'array') return r.error(tokensNode, ['tokens'], `expected a list of the tokens' texts, got ${describe(tokensNode)}`);
    const items = tokensNode.children ?? [];
    if (items.length > MAX_REFERENCE_TOKENS) return r.error(tokensNode, ['tokens'], `${items.length} tokens, over the ${MAX_REFERENCE_TOKENS} the model views open`);
    tokens = [];
    for (let i = 0; i < items.length; i++) {
      const t = r.string(items[i], ['tokens', i], "a token's text");
      if (t === undefined) return undefined;
      tokens.push(t);
    }
  }
  return { file, ...(tensor !== undefined ? { tensor } : {}), ...(tokens ? { tokens, tokensSpan: spanOf(tokensNode!) } : {}), span: spanOf(fileNode) };
}
