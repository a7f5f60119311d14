// The desktop's RunPlaces (session.ts): a spec's model found on disk (beside the spec, in the Hugging
// Face cache, or, trusted, at an absolute path: core/checkpoint-files/model-location.ts), read by the
// run's worker from there; a head saved as a spec with its safetensors beside it (lens-save.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hfCacheRoot, nodeFolderFs, resolveModelFolder } from '../../../core/checkpoint-files/model-location.js';
import { saveLens } from '../lens-save.js';
import type { RunPlaces } from '../session.js';

export const desktopRunPlaces: RunPlaces = {
  locate(model, spec) {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    return Promise.resolve(resolveModelFolder(model, {
      specFolder: spec.scheme === 'file' ? path.dirname(spec.fsPath) : undefined,
      workspaceFolders: folders, cacheRoot: hfCacheRoot(), trusted: vscode.workspace.isTrusted, fs: nodeFolderFs,
    }));
  },
  saveLens,
};
