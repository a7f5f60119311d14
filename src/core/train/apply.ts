// "Apply Learned Weights": the text edits that write a training run's learnt matrices into the
// spec, in place of the head's "wq" / "wk" / "wv" (or added to the head when it had none). Pure, so
// the host applies them as one undoable edit and the tests check them without an editor.
// Numbers are written with 6 significant digits: readable in a teaching spec, and within 5e-7
// (relative) of what was learnt.
import { childAt, parseJson } from '../json/json-tree.js';
import { LineIndex } from '../json/problems.js';
import type { Matrix } from '../linalg/matrix.js';
import type { LearnableRole } from '../spec/spec.js';

export interface TextEdit {
  offset: number;
  length: number;
  text: string;
}

function rowsText(m: Matrix, indent: string): string {
  const rows: string[] = [];
  for (let i = 0; i < m.rows; i++) {
    rows.push(`${indent}  [${Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), (v) => String(Number(v.toPrecision(6)) || 0)).join(', ')}]`);
  }
  return `[\n${rows.join(',\n')}\n${indent}]`;
}

/** The edits, or a sentence saying why they cannot be made (no "heads" written out, say). */
export function learnedWeightEdits(text: string, head: number, weights: Record<LearnableRole, Matrix>, learn: readonly LearnableRole[]): TextEdit[] | string {
  const root = parseJson(text).root;
  const headNode = childAt(childAt(root, 'heads'), head);
  if (!headNode || headNode.type !== 'object') return `head ${head} is not written out in "heads": write it as { "name": …, "wq": "identity", … } first`;
  const lines = new LineIndex(text);
  const lineStart = (offset: number) => offset - (lines.positionAt(offset).column - 1);
  const indentAt = (offset: number) => /^[ \t]*/.exec(text.slice(lineStart(offset)))?.[0] ?? '';
  const edits: TextEdit[] = [];
  const missing: LearnableRole[] = [];
  for (const role of learn) {
    const node = childAt(headNode, role);
    if (node) edits.push({ offset: node.offset, length: node.length, text: rowsText(weights[role], indentAt(node.offset)) });
    else missing.push(role);
  }
  if (missing.length) {
    // New properties go right after the head's opening brace, indented like its first property.
    const first = headNode.children?.[0];
    const indent = first ? indentAt(first.offset) : `${indentAt(headNode.offset)}  `;
    const sameLine = first ? lines.positionAt(first.offset).line === lines.positionAt(headNode.offset).line : true;
    const parts = missing.map((role) => `"${role}": ${rowsText(weights[role], indent)}`);
    const sep = sameLine ? ' ' : `\n${indent}`;
    edits.push({ offset: headNode.offset + 1, length: 0, text: `${sep}${parts.join(`,${sep}`)}${first ? ',' : ''}${first ? '' : ' '}` });
  }
  return edits.sort((a, b) => b.offset - a.offset);
}

/** The text with the edits applied (they do not overlap; applied from the end so offsets hold). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.text + out.slice(e.offset + e.length);
  return out;
}
