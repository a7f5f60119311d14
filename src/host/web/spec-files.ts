// The tensor files a spec names ({ "wq": { "file": "wq.npy" } }), read on the web through
// vscode.workspace.fs before the spec is computed: the analysis (a Web Worker, or this thread) cannot
// call the VS Code API, and the core reads files synchronously, so the host reads each one the spec
// names from the spec's folder, within a size limit the message states, and the analysis opens them
// from memory (analysis/memory-files.ts) by the same TensorFiles interface the desktop backs with
// node:fs. The same rule as on a disk: no absolute path, no "..".
import * as vscode from 'vscode';
import { parseJson, type Node } from '../../core/json/json-tree.js';
import { badFileName } from '../../core/spec/read/file-name.js';
import { mib } from '../../core/files/mib.js';
import type { WorkerRequest } from '../../protocol/analysis-worker.js';

/** The largest tensor file read on the web: it is held in the browser's memory, twice while it is posted. */
export const MAX_WEB_TENSOR_FILE_BYTES = 64 * 2 ** 20;

/** The most bytes of tensor files read for one spec on the web (a spec may name up to 64 files). */
export const MAX_WEB_SPEC_FILES_BYTES = 256 * 2 ** 20;
/** The most files one spec may name (more are problems of their own, not read). */
export const MAX_NAMED_FILES = 64;

type Request = Omit<WorkerRequest, 'id'>;

/** The names in the spec's { "file": … } objects, but its "attention" reference (the model editor's). */
export function namedFiles(text: string): string[] {
  const { root } = parseJson(text);
  const names = new Set<string>();
  const walk = (node: Node | undefined, top: boolean): void => {
    if (!node || names.size >= MAX_NAMED_FILES) return;
    if (node.type === 'object') {
      for (const p of node.children ?? []) {
        const [key, value] = p.children ?? [];
        if (top && key?.value === 'attention') continue;
        if (key?.value === 'file' && value?.type === 'string') names.add(String(value.value));
        else walk(value, false);
      }
    } else if (node.type === 'array') {
      for (const c of node.children ?? []) walk(c, false);
    }
  };
  walk(root, true);
  return [...names];
}

/**
 * The request with the tensor files its spec names, read beside the spec (`request.folder`: the spec's
 * URI on the web): each one's bytes, or the sentence saying why it was not read.
 */
export async function withSpecFiles(request: Request): Promise<Request> {
  if (request.folder === undefined) return request;
  const names = namedFiles(request.text);
  if (names.length === 0) return request;
  const folder = vscode.Uri.joinPath(vscode.Uri.parse(request.folder), '..');
  const files: Record<string, Uint8Array | string> = {};
  // Each file within its own limit, and all of a spec's together within MAX_WEB_SPEC_FILES_BYTES.
  let total = 0;
  for (const name of names) {
    const read = total >= MAX_WEB_SPEC_FILES_BYTES ? `${name}: not read, the spec's other files already hold ${mib(total)} of the ${mib(MAX_WEB_SPEC_FILES_BYTES)} VS Code for the Web reads for one spec` : await readBeside(folder, name);
    if (typeof read !== 'string') {
      total += read.byteLength;
      if (total > MAX_WEB_SPEC_FILES_BYTES) {
        files[name] = `${name}: not read, the spec's files together pass the ${mib(MAX_WEB_SPEC_FILES_BYTES)} VS Code for the Web reads for one spec`;
        continue;
      }
    }
    files[name] = read;
  }
  return { ...request, files };
}

async function readBeside(folder: vscode.Uri, name: string): Promise<Uint8Array | string> {
  const bad = badFileName(name);
  if (bad) return `${name}: ${bad}`;
  const uri = vscode.Uri.joinPath(folder, name);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    return `${name}: no such file beside the spec`;
  }
  if (stat.type & vscode.FileType.Directory) return `${name}: a folder, not a tensor file`;
  if (stat.size > MAX_WEB_TENSOR_FILE_BYTES) {
    return `${name}: ${mib(stat.size)}, over the ${mib(MAX_WEB_TENSOR_FILE_BYTES)} a tensor file may have in VS Code for the Web (the desktop reads up to the spec's limit on numbers)`;
  }
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch (e) {
    return `${name}: cannot be read (${e instanceof Error ? e.message : String(e)})`;
  }
}

// Said here too: the web's sentences import it from this file.
export { mib };
