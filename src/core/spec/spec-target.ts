// The things in a spec a hover or a click can point at (a token of an input, a weight matrix or
// one of its cells), and how they map to and from JSON paths in the spec's text.
import { locate } from '../json/locate.js';
import type { PathSegment } from '../json/path.js';
import type { Span } from './spec.js';
import { HEAD_ROLES, type Role } from '../vocabulary.js';

export type MatrixRole = Role;

export type SpecTarget =
  | { kind: 'token'; input: number; token: number }
  | { kind: 'matrix'; role: MatrixRole; head?: number; row?: number; col?: number };

const isIndex = (s: PathSegment | undefined): s is number => typeof s === 'number';

/** What a JSON path (as jsonc-parser's getLocation gives it) points at, if it is a token or a matrix. */
export function targetAtPath(path: readonly PathSegment[]): SpecTarget | undefined {
  const [a, b, c, d, e] = path;
  // inputs[i].tokens[j]; one more segment is the key or value inside an inline token, not its embedding numbers
  if (a === 'inputs' && isIndex(b) && c === 'tokens' && isIndex(d) && path.length <= 5
      && (path.length === 4 || typeof e === 'string')) {
    return { kind: 'token', input: b, token: d };
  }
  // heads[h].wq[row][col]
  if (a === 'heads' && isIndex(b) && typeof c === 'string' && (HEAD_ROLES as readonly string[]).includes(c) && path.length <= 5) {
    return withCell({ kind: 'matrix', role: c as MatrixRole, head: b }, path.slice(3));
  }
  // wo[row][col]
  if (a === 'wo' && path.length <= 3) return withCell({ kind: 'matrix', role: 'wo' }, path.slice(1));
  return undefined;
}

function withCell(target: SpecTarget & { kind: 'matrix' }, rest: readonly PathSegment[]): SpecTarget | undefined {
  const [row, col] = rest;
  if (row === undefined) return target;
  if (!isIndex(row) || (col !== undefined && !isIndex(col))) return undefined;
  return { ...target, row, ...(col !== undefined ? { col } : {}) };
}

/** The JSON path of a target: the exact place first; callers fall back to its prefixes when that is absent. */
export function pathOfTarget(target: SpecTarget): PathSegment[] {
  if (target.kind === 'token') return ['inputs', target.input, 'tokens', target.token];
  const base: PathSegment[] = target.role === 'wo' ? ['wo'] : ['heads', target.head ?? 0, target.role];
  if (target.row !== undefined) {
    base.push(target.row);
    if (target.col !== undefined) base.push(target.col);
  }
  return base;
}

/** Where a target is in the text: its exact path, else the nearest enclosing part that exists
 *  (a cell of an "identity" matrix selects "identity"; a missing default matrix selects its head). */
export function spanOfTarget(text: string, target: SpecTarget): Span | undefined {
  const path = pathOfTarget(target);
  for (let n = path.length; n > 0; n--) {
    const span = locate(text, path.slice(0, n));
    if (span) return span;
  }
  return undefined;
}
