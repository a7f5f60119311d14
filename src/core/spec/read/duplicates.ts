// A key written twice in one object: JSON readers disagree on which one wins (the first, the
// last), so the spec would mean different things to different tools. Each repeat is an error.
import type { Node } from '../../json/json-tree.js';
import { positionAt } from '../../json/problems.js';
import type { JsonPath } from '../../json/path.js';
import type { Reader } from './values.js';
import { quote } from '../../json/quote.js';

export function reportDuplicateKeys(r: Reader, root: Node, text: string): void {
  // Iterative walk: the tree is at most MAX_DEPTH deep, but a stack costs nothing here.
  const stack: { node: Node; path: JsonPath }[] = [{ node: root, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (node.type === 'object') {
      const first = new Map<string, Node>();
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (!key) continue;
        const name = key.value as string;
        const earlier = first.get(name);
        if (earlier) {
          r.error(key, [...path, name], `${quote(name)} is written twice (also at line ${positionAt(text, earlier.offset).line}): keep one, since JSON readers disagree on which wins`);
        } else {
          first.set(name, key);
        }
        if (value) stack.push({ node: value, path: [...path, name] });
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((child, i) => stack.push({ node: child, path: [...path, i] }));
    }
  }
}
