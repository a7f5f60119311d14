// A head of a web run in the spec views: its spec and tensor file (the desktop's bytes: core/
// checkpoint-spec/lens-file.ts) written through workspace.fs, then opened. "Open in the lens" writes in
// the extension's storage, one lens per model and head, replaced when opened again; "Save head as spec…" where the dialog says, beside the
// run's spec by default. The web writes a lens only to new names: the desktop replaces an earlier
// lens's own files after reading them back as a lens's, which this does not, so a name that is taken,
// or a target in the model's own folder, is refused in one line and nothing is written.
import * as vscode from 'vscode';
import { LENS_SAVE_FILTERS, lensFileContents, lensSpecPath, lensStem, lensTensorPath } from '../../../core/checkpoint-spec/lens-file.js';
import type { LensMessage, LensRun, LensSaving } from '../../checkpoint-run/lens-save.js';

async function isThere(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

const tensorOf = (spec: vscode.Uri) => spec.with({ path: lensTensorPath(spec.path) });
const nameOf = (uri: vscode.Uri) => uri.path.split('/').pop() ?? uri.path;

/** A fresh spec in `folder` for the stem (stem.attn.json, else stem-2.attn.json, …), its tensor file's name free too. */
async function freshLens(folder: vscode.Uri, stem: string): Promise<vscode.Uri> {
  for (let k = 1; ; k++) {
    const spec = vscode.Uri.joinPath(folder, `${stem}${k === 1 ? '' : `-${k}`}.attn.json`);
    if (!(await isThere(spec)) && !(await isThere(tensorOf(spec)))) return spec;
  }
}

/** Why the web does not write a lens at `spec` for a model in `modelFolder` (a URI), or undefined. */
async function targetProblem(spec: vscode.Uri, modelFolder: string): Promise<string | undefined> {
  if (!/\.attn\.json$/i.test(spec.path)) return 'a spec\'s name ends in .attn.json';
  const folder = vscode.Uri.parse(modelFolder);
  if (folder.scheme === spec.scheme && folder.authority === spec.authority && spec.path.startsWith(folder.path.endsWith('/') ? folder.path : `${folder.path}/`)) {
    return 'this is the model\'s own folder: its files are never replaced, so choose another folder for the spec';
  }
  for (const uri of [spec, tensorOf(spec)]) {
    if (await isThere(uri)) return `${nameOf(uri)} is there, and VS Code for the Web writes a lens only to new names: choose another name`;
  }
  return undefined;
}

/** Saves (or opens) a head of the run as a spec through workspace.fs; a problem is one error message. */
export async function saveWebLens(saving: LensSaving, run: LensRun, m: LensMessage): Promise<void> {
  const { model, folder } = run;
  try {
    const lens = await saving.lens(m.layer, m.head);
    const stem = lensStem(model, m.layer, m.head);
    let spec: vscode.Uri;
    if (m.save) {
      const proposed = await freshLens(vscode.Uri.joinPath(run.spec, '..'), stem);
      const chosen = await saving.dialogs.save({
        defaultUri: proposed, saveLabel: 'Save', title: `Save ${model} layer ${m.layer + 1} head ${m.head + 1} as a spec`, filters: LENS_SAVE_FILTERS,
      });
      if (!chosen) return;
      spec = chosen.with({ path: lensSpecPath(chosen.path) });
      const problem = await targetProblem(spec, folder);
      if (problem) { void vscode.window.showErrorMessage(`Attention Lens: ${problem}`); return; }
    } else {
      // The extension's own storage: a head opened again replaces its earlier lens there, never piling up copies.
      const dir = vscode.Uri.joinPath(saving.globalStorageUri, 'lens');
      await vscode.workspace.fs.createDirectory(dir);
      spec = vscode.Uri.joinPath(dir, `${stem}.attn.json`);
    }
    const tensor = tensorOf(spec);
    const { text, tensorBytes } = lensFileContents(lens, { tensorFile: nameOf(tensor), model, query: m.token });
    await vscode.workspace.fs.writeFile(tensor, tensorBytes);
    await vscode.workspace.fs.writeFile(spec, new TextEncoder().encode(text));
    if (m.save) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(spec), { preview: false, viewColumn: vscode.ViewColumn.One });
    await saving.showSpec(spec);
  } catch (e) {
    void vscode.window.showErrorMessage(`Attention Lens: the lens on layer ${m.layer + 1} head ${m.head + 1}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
