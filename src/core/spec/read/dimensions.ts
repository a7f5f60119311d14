// d_model and the feature names: everything else in a spec is checked against them.
import { childAt, type Node } from '../../json/json-tree.js';
import { describe, type Reader } from './values.js';
import { quote } from '../../json/quote.js';
import { isFileRef, readFileMatrix } from './file-ref.js';

export interface Dimensions {
  dModel: number;
  features: string[];
  featuresGiven: boolean;
}

export function readFeatures(r: Reader, root: Node): string[] | undefined {
  const node = childAt(root, 'features');
  if (!node) return undefined;
  if (node.type !== 'array' || (node.children?.length ?? 0) === 0) {
    return r.error(node, ['features'], `expected a non-empty list of feature names, got ${describe(node)}`);
  }
  const names: string[] = [];
  const seen = new Set<string>();
  node.children!.forEach((c, i) => {
    const name = r.string(c, ['features', i], 'a feature name');
    if (name === undefined) return;
    if (seen.has(name)) r.error(c, ['features', i], `feature ${quote(name)} is named twice`);
    seen.add(name);
    names.push(name);
  });
  return names.length === node.children!.length ? names : undefined;
}

/** d_model comes from the feature names, else from the first embedding, else from the first inline vector. */
export function readDimensions(r: Reader, root: Node): Dimensions | undefined {
  const features = readFeatures(r, root);
  if (childAt(root, 'features') && !features) return undefined;
  if (features) return { dModel: features.length, features, featuresGiven: true };
  const embeddings = childAt(root, 'embeddings');
  // Embeddings kept in a tensor file: d_model is its width (read once; readEmbeddings reuses it).
  if (isFileRef(embeddings)) {
    const m = readFileMatrix(r, embeddings!, ['embeddings'], ['words']);
    if (!m) return undefined;
    return { dModel: m.cols, features: Array.from({ length: m.cols }, (_, i) => `d${i}`), featuresGiven: false };
  }
  const firstEmbedding = embeddings?.children?.[0]?.children?.[1];
  let width = firstEmbedding?.type === 'array' ? firstEmbedding.children?.length : undefined;
  if (!width) {
    for (const input of childAt(root, 'inputs')?.children ?? []) {
      for (const token of childAt(input, 'tokens')?.children ?? []) {
        const inline = childAt(token, 'embedding');
        if (inline?.type === 'array' && inline.children?.length) {
          width = inline.children.length;
          break;
        }
      }
      if (width) break;
    }
  }
  if (!width) {
    r.error(root, [], 'cannot tell d_model: give "features" (names of the dimensions) or at least one embedding');
    return undefined;
  }
  return { dModel: width, features: Array.from({ length: width }, (_, i) => `d${i}`), featuresGiven: false };
}
