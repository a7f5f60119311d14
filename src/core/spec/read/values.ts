// The reader's toolkit: checks for numbers, strings, vectors and matrices that add a problem
// (with path and exact range) instead of throwing, so every part of a spec is read the same way.
import type { TensorFiles } from '../../files/spec-files.js';
import { fromRows, type Matrix } from '../../linalg/matrix.js';
import type { Node } from '../../json/json-tree.js';
import { formatPath, type JsonPath } from '../../json/path.js';
import type { Problem } from '../../json/problems.js';
import type { Span } from '../spec.js';
import { quote } from '../../json/quote.js';

export function spanOf(node: Node): Span {
  return { offset: node.offset, length: node.length };
}

/** "1 row", "2 rows". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function describe(node: Node): string {
  switch (node.type) {
    case 'string': return `a string ${quote(String(node.value))}`;
    case 'number': return `the number ${node.value}`;
    case 'boolean': return String(node.value);
    case 'null': return 'null';
    case 'array': return `a list of ${node.children?.length ?? 0}`;
    case 'object': return 'an object';
    default: return node.type;
  }
}

/**
 * Most problems one read reports. Past this the rest are counted, not kept: 100,000 broken
 * numbers would otherwise become 100,000 diagnostics and as many lines in a terminal.
 */
export const MAX_PROBLEMS = 1000;

/** The length most of the rows (lists) have; the earliest such length on a tie; 0 when row 0 is empty and wins. */
function commonLength(rows: readonly Node[]): number {
  const counts = new Map<number, number>();
  for (const r of rows) if (r.type === 'array') counts.set(r.children?.length ?? 0, (counts.get(r.children?.length ?? 0) ?? 0) + 1);
  let best = rows[0].children?.length ?? 0;
  for (const [length, n] of counts) if (n > (counts.get(best) ?? 0)) best = length;
  return best;
}

export class Reader {
  readonly problems: Problem[] = [];
  private dropped = 0;

  /** Matrices read from tensor files beside the spec, by file and tensor: each is read once. */
  readonly fileMatrices = new Map<string, Matrix>();
  /** Numbers read from tensor files so far (all references together are capped, not only each one). */
  fileNumbers = 0;

  /** `files`: where the tensor files a spec names are opened (absent: the spec is not on disk). */
  constructor(private readonly text: string, readonly files?: TensorFiles) {}

  error(at: Node | Span, path: JsonPath, message: string): undefined {
    this.add('error', at, path, message);
    return undefined;
  }

  warn(at: Node | Span, path: JsonPath, message: string): void {
    this.add('warning', at, path, message);
  }

  private add(severity: Problem['severity'], at: Node | Span, path: JsonPath, message: string): void {
    if (this.problems.length >= MAX_PROBLEMS) {
      // Keep one error among the kept problems even when only warnings were kept, so the read still fails.
      if (this.dropped++ === 0) {
        this.problems.push({ severity: 'error', path: '', span: { offset: 0, length: Math.min(1, this.text.length) },
          message: `more than ${MAX_PROBLEMS} problems: only the first ${MAX_PROBLEMS} are listed; fix those and check again` });
      }
      return;
    }
    const span = 'type' in at ? spanOf(at) : at;
    this.problems.push({ severity, path: formatPath(path), message, span });
  }

  /** The top-level object's opening brace, for problems about something missing from it. */
  rootKeySpan(root: Node): Span {
    return { offset: root.offset, length: 1 };
  }

  number(node: Node, path: JsonPath): number | undefined {
    if (node.type !== 'number') return this.error(node, path, `expected a number, got ${describe(node)}`);
    const v = node.value as number;
    if (!Number.isFinite(v)) {
      return this.error(node, path, `${this.text.slice(node.offset, node.offset + node.length)} is too large: it overflows to Infinity`);
    }
    return v;
  }

  string(node: Node, path: JsonPath, what = 'a string'): string | undefined {
    if (node.type !== 'string') return this.error(node, path, `expected ${what}, got ${describe(node)}`);
    return node.value as string;
  }

  /** A list of numbers, optionally of an expected length. */
  vector(node: Node, path: JsonPath, expected?: { length: number; what: string }): Float64Array | undefined {
    if (node.type !== 'array') return this.error(node, path, `expected a list of numbers, got ${describe(node)}`);
    const items = node.children ?? [];
    if (items.length === 0) return this.error(node, path, 'expected a list of numbers, got an empty list');
    if (expected && items.length !== expected.length) {
      return this.error(node, path, `${count(items.length, 'number')}, expected ${expected.length} (${expected.what})`);
    }
    const out = new Float64Array(items.length);
    let ok = true;
    items.forEach((item, i) => {
      const v = this.number(item, [...path, i]);
      if (v === undefined) ok = false;
      else out[i] = v;
    });
    return ok ? out : undefined;
  }

  /** A matrix as a list of rows of equal length; `rows` is the expected row count and what it is. */
  matrix(node: Node, path: JsonPath, rows: { count: number; what: string }, expected = 'a matrix (a list of rows) or "identity"'): Matrix | undefined {
    if (node.type !== 'array') return this.error(node, path, `expected ${expected}, got ${describe(node)}`);
    const rowNodes = node.children ?? [];
    if (rowNodes.length !== rows.count) {
      return this.error(node, path, `${count(rowNodes.length, 'row')}, expected ${rows.count} (${rows.what})`);
    }
    const first = rowNodes[0];
    if (first.type !== 'array') return this.error(first, [...path, 0], `expected a row (a list of numbers), got ${describe(first)}`);
    // The width is the one most rows have (the first row's on a tie): a number added to or dropped from
    // one row is underlined on that row, not on all the others (W_Q row 0 one number longer used to
    // put the error on rows 1 and 2).
    const cols = commonLength(rowNodes);
    if (cols === 0) return this.error(first, [...path, 0], 'a row needs at least one number');
    // Counted once: counting for each ragged row made a d_model of 100,000 half-ragged rows quadratic (minutes).
    const isWide = (o: Node) => o.type === 'array' && (o.children?.length ?? 0) === cols;
    const others = rowNodes.reduce((n, o) => n + (isWide(o) ? 1 : 0), 0);
    const sameAs = rowNodes.findIndex(isWide);
    const values: Float64Array[] = [];
    let ok = true;
    rowNodes.forEach((r, i) => {
      if (r.type === 'array' && (r.children?.length ?? 0) !== cols) {
        ok = false;
        const them = others > 1 ? `the other ${others} rows have ${cols}` : `row ${sameAs} has ${cols}`;
        this.error(r, [...path, i], `row ${i} has ${count(r.children?.length ?? 0, 'number')} but ${them}: every row must be as long`);
        return;
      }
      const v = this.vector(r, [...path, i]);
      if (v) values.push(v);
      else ok = false;
    });
    if (!ok) return undefined;
    return fromRows(values.map((v) => Array.from(v)), cols);
  }

  /** Warn about properties this version does not know, so typos do not pass silently. */
  unknownKeys(node: Node, path: JsonPath, known: ReadonlySet<string>): void {
    for (const prop of node.children ?? []) {
      const key = prop.children?.[0];
      if (key && !known.has(key.value as string)) {
        this.warn(key, [...path, key.value as string], `unknown property ${quote(String(key.value))} (ignored); expected one of ${[...known].filter((k) => !k.startsWith('$')).join(', ')}`);
      }
    }
  }

  object(node: Node, path: JsonPath, what: string): boolean {
    if (node.type !== 'object') {
      this.error(node, path, `expected ${what} (an object), got ${describe(node)}`);
      return false;
    }
    return true;
  }
}
