// A problem found in a spec: what is wrong, where (JSON path and text range), how bad.
// Every reader check produces these instead of throwing, so all of them can be shown at once.
import type { Span } from '../spec/spec.js';

export type Severity = 'error' | 'warning';

export interface Problem {
  readonly severity: Severity;
  /** JSON path in the spec's own notation, e.g. heads[0].wq or embeddings.apple[2]; '' for the whole file. */
  readonly path: string;
  readonly message: string;
  readonly span: Span;
}

export interface Position {
  /** 1-based, as editors and compilers print them. */
  readonly line: number;
  readonly column: number;
}

/**
 * Where each line of a text starts, found once (O(length)), so each position after that is a
 * binary search: a file with 100,000 problems must not rescan the text 100,000 times.
 * Line breaks are \n, \r\n and a lone \r, as editors count them. A leading byte-order mark is
 * invisible in editors, so it does not count as a column.
 */
export class LineIndex {
  private readonly starts: number[] = [0];
  private readonly bom: boolean;

  constructor(private readonly text: string) {
    this.bom = text.charCodeAt(0) === 0xfeff;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      }
    }
  }

  positionAt(offset: number): Position {
    const end = Math.min(Math.max(offset, 0), this.text.length);
    let lo = 0, hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= end) lo = mid;
      else hi = mid - 1;
    }
    const column = end - this.starts[lo] + 1 - (lo === 0 && this.bom && end > 0 ? 1 : 0);
    return { line: lo + 1, column };
  }
}

// The last text's index: the CLI formats all problems of one file in a row.
let cached: { text: string; index: LineIndex } | undefined;

function indexOf(text: string): LineIndex {
  if (cached?.text !== text) cached = { text, index: new LineIndex(text) };
  return cached.index;
}

/** Line and column (1-based) of a character offset. */
export function positionAt(text: string, offset: number): Position {
  return indexOf(text).positionAt(offset);
}

/** `FILE:LINE:COL: message`, the form compilers use, so terminals and editors can link it. */
export function formatProblem(file: string, text: string, p: Problem): string {
  const { line, column } = positionAt(text, p.span.offset);
  const where = p.path ? `${p.path}: ` : '';
  const level = p.severity === 'warning' ? 'warning: ' : '';
  return `${file}:${line}:${column}: ${level}${where}${p.message}`;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
