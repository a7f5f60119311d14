// Where the model file a spec references ({ "attention": { "file" } }) lies on disk: beside the spec or
// below it, by the same rule as the tensor files (no absolute path, no "..", no link leading out), and
// its tokens file too. Shared by the panel (which says where the picture is) and Show Attention (which
// opens the model editor on it and no panel, since a panel would have nothing to draw).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkSidecarBeside, resolveBeside } from '../../core/files/spec-files.js';
import { TensorFileError } from '../../core/tensors/source.js';
import type { AttentionReference } from '../../core/spec/read/reference.js';

/** The referenced file's URI, or a sentence saying why it cannot be opened. */
export function referencedFile(specUri: vscode.Uri, ref: AttentionReference): vscode.Uri | string {
  try {
    if (specUri.scheme !== 'file') throw new TensorFileError('this spec is not a file on disk, so the file beside it cannot be read: save it first');
    const folder = path.dirname(specUri.fsPath);
    const real = resolveBeside(folder, ref.file);
    checkSidecarBeside(folder, real); // its tokens file too, if it has one
    return vscode.Uri.file(real);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export { referenceOpenOptions } from './reference-options.js';
