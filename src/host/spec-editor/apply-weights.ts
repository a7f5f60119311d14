// The command "Apply Learned Weights": runs the spec's "train" section and writes the learnt
// matrices into the spec as one edit, so a single Undo brings the old ones back. The edits are
// made by the pure core (train/apply.ts); this shell finds the document and reports.
import { ROLE_SYMBOL } from '../../core/vocabulary.js';
import * as vscode from 'vscode';
import { hasErrors } from '../../core/json/problems.js';
import { readSpec } from '../../core/spec/read.js';
import { stepWork } from '../../core/spec/read-train.js';
import { learnedWeightEdits } from '../../core/train/apply.js';
import { train } from '../../core/train/descent.js';
import { PANEL_TRAIN_WORK } from '../../core/train/frames.js';
import { spanToRange } from './ranges.js';


/** Applies the learnt weights to the spec at `uri`; false (with a message) when it cannot. */
export async function applyLearnedWeights(uri: vscode.Uri | undefined): Promise<boolean> {
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
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) edit.replace(uri, spanToRange(document, { offset: e.offset, length: e.length }), e.text);
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showWarningMessage('Attention Lens: the editor refused the edit (is the file read-only?).');
    return false;
  }
  const roles = t.learn.map((r) => ROLE_SYMBOL[r]).join(', ');
  const [first, last] = [run.loss[0], run.loss[run.loss.length - 1]];
  void vscode.window.showInformationMessage(
    `Attention Lens: wrote the learnt ${roles} of head "${spec.heads[t.head].name}" (${t.steps} steps, loss ${first.toPrecision(3)} → ${last.toPrecision(3)}). Undo restores the previous matrices.`);
  return true;
}
