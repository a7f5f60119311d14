// "Save this head as a spec" and a head opened in the lens from a model run's views: the run's worker
// cuts the head out (client.ts), and its spec and tensor file are written (lens-files.ts) where the
// user says, beside the spec proposed (save), or in the extension's storage (open), then the spec
// views open on it. A target the lens may not be written to, or a failure on the way, is one error
// message naming the head. A run longer than a spec holds is written as the window around the query
// (lens-files.ts, said in the spec's title); a run too long for its worker to cut a head out of in
// memory says so and what to do, not the allocator's words.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HeadLens } from '../../core/checkpoint/types.js';
import type { ModelWebviewMessage } from '../../protocol/model-editor.js';
import type { Dialogs } from '../dialogs.js';
import { freshLensPath, LENS_SAVE_FILTERS, lensSpecPath, lensStem, lensTargetProblem, writeLensFiles } from './lens-files.js';

export interface LensSaving {
  /** Cuts a head out of the latest run (the run's worker: RunClient.lens). */
  lens(layer: number, head: number): Promise<HeadLens>;
  /** How "Save this head as a spec" asks where to save. */
  dialogs: Dialogs;
  /** Where a head opened without saving is written (under lens/). */
  globalStorageUri: vscode.Uri;
  /** Opens the spec views (the panel) on a spec. */
  showSpec(uri: vscode.Uri): Thenable<unknown>;
}

/** The run the head is of: its spec, its model's name and folder. */
export interface LensRun {
  spec: vscode.Uri;
  model: string;
  folder: string;
}

export type LensMessage = Extract<ModelWebviewMessage, { type: 'lens' }>;

/** A head of the run in the spec views: written beside the spec (saved where the user says) or in the extension's storage, then opened. */
export async function saveLens(saving: LensSaving, run: LensRun, m: LensMessage): Promise<void> {
  const { model, folder } = run;
  try {
    const lens = await saving.lens(m.layer, m.head);
    const stem = lensStem(model, m.layer, m.head);
    let target: string;
    if (m.save) {
      const beside = run.spec.scheme === 'file' ? path.dirname(run.spec.fsPath) : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const proposed = beside ? vscode.Uri.file(freshLensPath(beside, stem)) : undefined;
      const chosen = await saving.dialogs.save({
        ...(proposed ? { defaultUri: proposed } : {}), saveLabel: 'Save', title: `Save ${model} layer ${m.layer + 1} head ${m.head + 1} as a spec`,
        filters: LENS_SAVE_FILTERS,
      });
      if (!chosen) return;
      target = lensSpecPath(chosen.fsPath);
      const problem = lensTargetProblem(target, folder);
      if (problem) { void vscode.window.showErrorMessage(`Attention Lens: ${problem}`); return; }
    } else {
      // The extension's own storage: a head opened again replaces its earlier lens there, never piling up copies.
      const dir = vscode.Uri.joinPath(saving.globalStorageUri, 'lens');
      await vscode.workspace.fs.createDirectory(dir);
      target = path.join(dir.fsPath, `${stem}.attn.json`);
    }
    writeLensFiles(target, lens, { model, modelFolder: folder, query: m.token });
    const spec = vscode.Uri.file(target);
    if (m.save) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(spec), { preview: false, viewColumn: vscode.ViewColumn.One });
    await saving.showSpec(spec);
  } catch (e) {
    void vscode.window.showErrorMessage(`Attention Lens: the lens on layer ${m.layer + 1} head ${m.head + 1}: ${lensFailure(e)}`);
  }
}

/** What a failed lens says: its own sentence, or for memory the run's length was too much for (an array the worker could not allocate), what to do. */
export function lensFailure(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (/allocation failed|invalid (typed )?array length|out of memory/i.test(message)) {
    return 'the run is too long to cut this head out of it in memory (its layer is recorded whole); run a shorter text and open the head again';
  }
  return message;
}
