// A problem found in a spec: what is wrong, where (JSON path and text range), how bad.
// Every reader check produces these instead of throwing, so all of them can be shown at once.
import type { Span } from './spec.js';

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

/** Line and column (1-based) of a character offset. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
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
