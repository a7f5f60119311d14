// "Attention Lens: Run a Model…": pick one of the models already in the Hugging Face cache (those the
// runner has no family for are listed greyed, and picking one says why; run-model-picks.ts) or any
// folder, give a text, and get a model spec for it, shown with its run. The spec is a new
// file in the workspace folder (so the model can be a folder beside it, and the text can be edited,
// saved and run again later like any spec); with no folder open it is an untitled spec (a cache id or,
// trusted, an absolute path needs no folder). A picked folder below the workspace is written relative
// to it; one outside it is written absolute, which only a trusted workspace may read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { listCachedModels } from '../../core/checkpoint-files/hf-cache.js';
import { hfCacheRoot, nodeFolderFs, within } from '../../core/checkpoint-files/model-location.js';
import { CHOOSE_FOLDER, modelPicks, pickPlaceholder, type ModelPick } from './run-model-picks.js';

export const DEFAULT_TEXT = 'The cat sat on the mat. The cat';

/** The model spec's text for `model` and `text`. */
export function modelSpecText(model: string, text: string): string {
  return `${JSON.stringify({ model, text }, null, 2)}\n`;
}

/** A fresh spec file name in `folder`: run-<model>.attn.json, then -2, -3, … */
export function freshSpecPath(folder: string, model: string): string {
  const stem = `run-${path.basename(model).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '').slice(0, 60) || 'model'}`;
  for (let k = 1; ; k++) {
    const file = path.join(folder, `${stem}${k === 1 ? '' : `-${k}`}.attn.json`);
    if (!fs.existsSync(file)) return file;
  }
}

export async function runModelCommand(open: (uri: vscode.Uri) => void): Promise<void> {
  const cached = listCachedModels(hfCacheRoot(), nodeFolderFs);
  const items = modelPicks(cached).map((p): vscode.QuickPickItem & { pick: ModelPick } => ({
    label: p.label,
    ...(p.description === undefined ? {} : { description: p.description }),
    ...(p.detail === undefined ? {} : { detail: p.detail }),
    ...(p.separator ? { kind: vscode.QuickPickItemKind.Separator } : {}),
    pick: p,
  }));
  const picked = (await vscode.window.showQuickPick(items, { title: 'Attention Lens: Run a Model', placeHolder: pickPlaceholder(cached) }))?.pick;
  if (!picked) return;
  if (picked.unsupported !== undefined) {
    void vscode.window.showWarningMessage(`Attention Lens cannot run ${picked.model ?? picked.label}: ${picked.unsupported}.`);
    return;
  }
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let model = picked.model ?? picked.label;
  if (picked.label === CHOOSE_FOLDER) {
    const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Run this model' });
    if (!chosen?.[0]) return;
    const folder = chosen[0].fsPath;
    if (workspace && within(workspace, folder)) model = path.relative(workspace, folder).split(path.sep).join('/') || '.';
    else if (!vscode.workspace.isTrusted) {
      void vscode.window.showErrorMessage('Attention Lens: this workspace is in Restricted Mode, so it reads models only inside it or from the Hugging Face cache: choose a folder in the workspace, or trust it.');
      return;
    } else model = folder;
  }
  const text = await vscode.window.showInputBox({ title: `The text ${model} reads`, value: DEFAULT_TEXT, prompt: 'Every head\'s attention over this text is shown; edit it in the spec to run again.' });
  if (text === undefined || text.length === 0) return;
  let uri: vscode.Uri;
  if (workspace) {
    uri = vscode.Uri.file(freshSpecPath(workspace, model));
    fs.writeFileSync(uri.fsPath, modelSpecText(model, text));
    await vscode.window.showTextDocument(uri, { preview: false });
  } else {
    const document = await vscode.workspace.openTextDocument({ language: 'json', content: modelSpecText(model, text) });
    await vscode.window.showTextDocument(document, { preview: false });
    uri = document.uri;
  }
  open(uri);
}
