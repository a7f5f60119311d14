// The command "Apply Learned Weights": runs the spec's "train" section and writes the learnt
// matrices into the spec as one edit, so a single Undo brings the old ones back (the message offers
// it too, since in code-server the edit is saved at once). One of the extension's own examples, or a
// spec the editor will not edit (read-only), is never changed: the learnt spec goes into a new file
// (<stem>.learned.attn.json, in the workspace folder) that opens beside it, and the message says so.
// The edits are made by the pure core (train/apply.ts); this shell finds the document and reports.
import { ROLE_SYMBOL } from '../../core/vocabulary.js';
import * as vscode from 'vscode';
import { hasErrors } from '../../core/json/problems.js';
import { readSpec } from '../../core/spec/read.js';
import { stepWork } from '../../core/spec/read/train.js';
import { learnedWeightEdits } from '../../core/train/apply.js';
import { train } from '../../core/train/descent.js';
import { PANEL_TRAIN_WORK } from '../../core/train/frames.js';
import { spanToRange } from './ranges.js';
import { freeName, isExampleSpec, workspaceFolder } from '../examples/examples.js';
import { baseName, SPEC_SUFFIX } from '../spec-documents.js';

export const UNDO = 'Undo';

/** The text with the edits made (they do not overlap; any order). */
export function withEdits(text: string, edits: readonly { offset: number; length: number; text: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.text + out.slice(e.offset + e.length);
  return out;
}

/** Writes the learnt spec into a new file (the workspace folder, else beside a spec that is not an example) and opens it. */
async function writeCopy(uri: vscode.Uri, text: string, example: boolean): Promise<vscode.Uri | undefined> {
  const stem = baseName(uri).replace(/\.attn\.json$/i, '');
  const beside = uri.scheme === 'file' && !example ? vscode.Uri.joinPath(uri, '..') : undefined;
  const folder = workspaceFolder() ?? beside;
  let copy: vscode.TextDocument;
  let where: vscode.Uri | undefined;
  if (folder) {
    where = await freeName(folder, `${stem}.learned`, SPEC_SUFFIX);
    await vscode.workspace.fs.writeFile(where, new TextEncoder().encode(text));
    copy = await vscode.workspace.openTextDocument(where);
  } else {
    copy = await vscode.workspace.openTextDocument({ language: 'json', content: text });
  }
  await vscode.window.showTextDocument(copy, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  return where ?? copy.uri;
}

/** The "Undo" of the message: the text before the edit, if the document is still as the edit left it. */
async function undoApplied(document: vscode.TextDocument, before: string, version: number): Promise<void> {
  if (document.isClosed || document.version !== version) {
    void vscode.window.showWarningMessage('Attention Lens: the spec changed since the learnt weights were written: use Edit → Undo in its editor.');
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), before);
  if (await vscode.workspace.applyEdit(edit)) void vscode.window.showInformationMessage('Attention Lens: the previous matrices are back.');
}

/** Applies the learnt weights to the spec at `uri`; false (with a message) when it cannot. */
export async function applyLearnedWeights(uri: vscode.Uri | undefined, extensionUri?: vscode.Uri): Promise<boolean> {
  if (!uri) {
    void vscode.window.showInformationMessage('Attention Lens: open a spec with a "train" section to apply what it learns.');
    return false;
  }
  const document = await vscode.workspace.openTextDocument(uri);
  const text = document.getText();
  const { spec, problems } = readSpec(text);
  if (!spec || hasErrors(problems)) {
    void vscode.window.showWarningMessage('Attention Lens: the spec has problems (see the Problems panel): fix them before training.');
    return false;
  }
  const t = spec.train;
  if (!t) {
    void vscode.window.showInformationMessage('Attention Lens: this spec has no "train" section: add { "head", "learn", "targets", "steps", "rate" } to say what to learn.');
    return false;
  }
  const work = t.steps * stepWork(spec.inputs, spec.heads[t.head], t.targets, spec.dModel);
  if (work > PANEL_TRAIN_WORK) {
    void vscode.window.showWarningMessage(`Attention Lens: ${t.steps} steps are too many to train in the editor; run attn train --json on it, or use fewer steps.`);
    return false;
  }
  const run = train(spec, t);
  if (run.stoppedAt !== undefined) {
    void vscode.window.showWarningMessage(run.stoppedAt === 0
      ? 'Attention Lens: the loss is not finite before the first step: the spec\'s numbers overflow as they are (scale, embeddings, weights or a target); nothing was changed.'
      : `Attention Lens: the numbers overflowed at step ${run.stoppedAt} (rate ${t.rate} is too large): nothing was changed; lower the rate.`);
    return false;
  }
  const edits = learnedWeightEdits(text, run.head, run.weights, t.learn);
  if (typeof edits === 'string') {
    void vscode.window.showWarningMessage(`Attention Lens: ${edits}.`);
    return false;
  }
  const roles = t.learn.map((r) => ROLE_SYMBOL[r]).join(', ');
  const [first, last] = [run.loss[0], run.loss[run.loss.length - 1]];
  const what = `the learnt ${roles} of head "${spec.heads[t.head].name}" (${t.steps} steps, loss ${first.toPrecision(3)} → ${last.toPrecision(3)})`;
  const example = extensionUri !== undefined && isExampleSpec(uri, extensionUri);
  if (!example) {
    const edit = new vscode.WorkspaceEdit();
    for (const e of edits) edit.replace(uri, spanToRange(document, { offset: e.offset, length: e.length }), e.text);
    if (await vscode.workspace.applyEdit(edit)) {
      const version = document.version;
      void vscode.window.showInformationMessage(`Attention Lens: wrote ${what}. Undo restores the previous matrices.`, UNDO)
        .then((choice) => (choice === UNDO ? undoApplied(document, text, version) : undefined));
      return true;
    }
  }
  // An example, or a spec the editor will not change: the learnt spec goes into a new file.
  const copy = await writeCopy(uri, withEdits(text, edits), example).catch((err: unknown) => {
    void vscode.window.showWarningMessage(`Attention Lens: could not write a copy with ${what}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  });
  if (!copy) return false;
  const why = example ? 'is one of the extension\'s examples, so it stays as it is' : 'cannot be edited (is the file read-only?)';
  const shown = copy.scheme === 'file' ? vscode.workspace.asRelativePath(copy, false) : 'a new untitled spec';
  void vscode.window.showInformationMessage(`Attention Lens: ${baseName(uri)} ${why}: ${what} went into ${shown}.`);
  return true;
}
