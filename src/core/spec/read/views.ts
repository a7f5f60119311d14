// View options: the quadrant plot's axes (a feature or a direction) and quadrant names.
import { childAt, type Node } from '../../json/json-tree.js';
import { formatPath, type JsonPath } from '../../json/path.js';
import type { QuadrantAxis, QuadrantOptions, ViewOptions } from '../spec.js';
import type { Dimensions } from './dimensions.js';
import type { Reader } from './values.js';
import { listSome, quote } from '../../json/quote.js';

/** The keys of a quadrant axis, of "views" and of "views.quadrant". */
export const AXIS_KEYS = ['feature', 'direction', 'label', 'ends'] as const;
export const VIEWS_KEYS = ['quadrant'] as const;
export const QUADRANT_KEYS = ['x', 'y', 'quadrants'] as const;

export function readAxis(r: Reader, node: Node, path: JsonPath, dims: Dimensions): QuadrantAxis | undefined {
  if (!r.object(node, path, 'an axis { "feature" or "direction", "label" }')) return undefined;
  r.unknownKeys(node, path, new Set(AXIS_KEYS));
  const featureNode = childAt(node, 'feature');
  const directionNode = childAt(node, 'direction');
  let direction: Float64Array | undefined;
  let defaultLabel = '';
  if (featureNode && directionNode) {
    return r.error(directionNode, [...path, 'direction'], 'an axis takes "feature" or "direction", not both');
  }
  if (featureNode) {
    const name = r.string(featureNode, [...path, 'feature'], 'a feature name');
    if (name === undefined) return undefined;
    const index = dims.features.indexOf(name);
    if (index < 0) return r.error(featureNode, [...path, 'feature'], `unknown feature ${quote(name)}: expected one of ${listSome(dims.features)}`);
    direction = new Float64Array(dims.dModel);
    direction[index] = 1;
    defaultLabel = name;
  } else if (directionNode) {
    direction = r.vector(directionNode, [...path, 'direction'], { length: dims.dModel, what: 'd_model' });
    if (!direction) return undefined;
    if (direction.every((v) => v === 0)) return r.error(directionNode, [...path, 'direction'], 'a direction cannot be all zeros');
  } else {
    return r.error(node, path, 'an axis needs "feature" (a feature name) or "direction" (a vector over the features)');
  }
  const labelNode = childAt(node, 'label');
  const label = labelNode ? r.string(labelNode, [...path, 'label']) : defaultLabel || formatPath(path);
  const endsNode = childAt(node, 'ends');
  let ends: [string, string] | undefined;
  if (endsNode) {
    if (endsNode.type !== 'array' || endsNode.children?.length !== 2) return r.error(endsNode, [...path, 'ends'], 'expected two names: the low end, then the high end');
    const a = r.string(endsNode.children[0], [...path, 'ends', 0]);
    const b = r.string(endsNode.children[1], [...path, 'ends', 1]);
    if (a === undefined || b === undefined) return undefined;
    ends = [a, b];
  }
  if (label === undefined) return undefined;
  return { label, direction, ...(ends ? { ends } : {}) };
}

export function readViews(r: Reader, root: Node, dims: Dimensions): ViewOptions | undefined {
  const node = childAt(root, 'views');
  if (!node) return {};
  if (!r.object(node, ['views'], 'view options')) return undefined;
  r.unknownKeys(node, ['views'], new Set(VIEWS_KEYS));
  const qNode = childAt(node, 'quadrant');
  if (!qNode) return {};
  const path = ['views', 'quadrant'];
  if (!r.object(qNode, path, 'quadrant options { "x", "y", "quadrants" }')) return undefined;
  r.unknownKeys(qNode, path, new Set(QUADRANT_KEYS));
  const xNode = childAt(qNode, 'x');
  const yNode = childAt(qNode, 'y');
  if (!xNode || !yNode) return r.error(qNode, path, 'a quadrant plot needs both "x" and "y" axes');
  const x = readAxis(r, xNode, [...path, 'x'], dims);
  const y = readAxis(r, yNode, [...path, 'y'], dims);
  const namesNode = childAt(qNode, 'quadrants');
  let quadrants: QuadrantOptions['quadrants'];
  if (namesNode) {
    if (namesNode.type !== 'array' || namesNode.children?.length !== 4) {
      return r.error(namesNode, [...path, 'quadrants'], 'expected four names: top-right, top-left, bottom-left, bottom-right');
    }
    const names = namesNode.children.map((c, i) => r.string(c, [...path, 'quadrants', i]));
    if (names.some((n) => n === undefined)) return undefined;
    quadrants = names as unknown as QuadrantOptions['quadrants'];
  }
  if (!x || !y) return undefined;
  return { quadrant: { x, y, ...(quadrants ? { quadrants } : {}) } };
}
