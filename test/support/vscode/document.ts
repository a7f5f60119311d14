// The `vscode` stand-in's TextDocument (see index.ts): a text in memory with VS Code's line and
// offset arithmetic (lines split at \n or \r\n; positions clamped to the text, as positionAt and
// validatePosition document), a version that grows by one per applied edit, and isClosed. Edits come
// from workspace.applyEdit or a test typing (state.ts), never from the host writing to it directly.
import { Position, Range, type TextEditEntry, type Uri } from './values.js';

export interface TextLine {
  readonly lineNumber: number;
  readonly text: string;
  readonly range: Range;
  readonly isEmptyOrWhitespace: boolean;
}

export interface ContentChange { range: Range; rangeOffset: number; rangeLength: number; text: string }

export class TextDocument {
  private content: string;
  private lineStarts: number[] = [];
  version = 1;
  isClosed = false;
  isDirty = false;
  readonly languageId: string;

  constructor(readonly uri: Uri, text: string, languageId = uri.path.endsWith('.json') ? 'json' : 'plaintext') {
    this.content = text;
    this.languageId = languageId;
    this.index();
  }

  get fileName(): string {
    return this.uri.fsPath;
  }

  get isUntitled(): boolean {
    return this.uri.scheme === 'untitled';
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  getText(range?: Range): string {
    if (!range) return this.content;
    return this.content.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  lineAt(lineOrPosition: number | Position): TextLine {
    const line = typeof lineOrPosition === 'number' ? lineOrPosition : lineOrPosition.line;
    if (line < 0 || line >= this.lineCount) throw new Error('Illegal value for `line`');
    const start = this.lineStarts[line];
    const text = this.content.slice(start, this.lineEnd(line));
    return { lineNumber: line, text, range: new Range(line, 0, line, text.length), isEmptyOrWhitespace: text.trim() === '' };
  }

  offsetAt(position: Position): number {
    const p = this.validatePosition(position);
    return this.lineStarts[p.line] + p.character;
  }

  positionAt(offset: number): Position {
    const at = Math.max(0, Math.min(Math.floor(offset), this.content.length));
    let lo = 0, hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= at) lo = mid; else hi = mid - 1;
    }
    // An offset inside a \r\n sits at the end of its line's text.
    return new Position(lo, Math.min(at, this.lineEnd(lo)) - this.lineStarts[lo]);
  }

  validatePosition(position: Position): Position {
    const line = Math.min(Math.max(0, position.line), this.lineCount - 1);
    const length = this.lineEnd(line) - this.lineStarts[line];
    return new Position(line, Math.min(Math.max(0, position.character), length));
  }

  /** Applies edits made against the current text (non-overlapping), as one new version; the changes made. */
  apply(edits: readonly TextEditEntry[]): ContentChange[] {
    const changes = edits.map((e) => {
      const rangeOffset = this.offsetAt(e.range.start);
      return { range: e.range, rangeOffset, rangeLength: this.offsetAt(e.range.end) - rangeOffset, text: e.newText };
    }).sort((a, b) => b.rangeOffset - a.rangeOffset);
    let text = this.content;
    for (const c of changes) text = text.slice(0, c.rangeOffset) + c.text + text.slice(c.rangeOffset + c.rangeLength);
    this.content = text;
    this.index();
    this.version++;
    this.isDirty = true;
    return changes;
  }

  private lineEnd(line: number): number {
    const next = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] : this.content.length + 1;
    let end = next - 1;
    if (end > 0 && this.content[end - 1] === '\r' && this.content[end] === '\n') end--;
    return Math.min(end, this.content.length);
  }

  private index(): void {
    this.lineStarts = [0];
    for (let i = 0; i < this.content.length; i++) if (this.content[i] === '\n') this.lineStarts.push(i + 1);
  }
}
