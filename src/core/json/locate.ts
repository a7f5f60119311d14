// Where a JSON path sits in the spec's text: for revealing a token or a matrix cell in the editor.
import { childAt, parseJson } from './json-tree.js';
import type { PathSegment } from './path.js';
import type { Span } from '../spec/spec.js';

export function locate(text: string, path: readonly PathSegment[]): Span | undefined {
  let node = parseJson(text).root;
  for (const seg of path) node = childAt(node, seg);
  return node ? { offset: node.offset, length: node.length } : undefined;
}
