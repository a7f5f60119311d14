// Where a model spec's model is on the web, and its files: read through vscode.workspace.fs (there is
// no disk), every file stat'ed first and all of them held to a total the browser can keep in memory,
// then handed to the run (client.ts RunFiles) and opened there from memory by the same reader the
// desktop uses on a disk (core/checkpoint-files/model-folder-read.ts: same checks, same messages).
// Only a folder beside the spec or below it, inside the workspace's folders, is read: a model named
// by its Hugging Face id (the cache is on a disk), an absolute path, or a folder outside the workspace
// says in one line why not. The last folder read is kept while its files' sizes and times stay the
// same, so an edit of the text reads no weights again.
import * as vscode from 'vscode';
import { MAX_CONFIG_BYTES, MODEL_FILE_NAMES, readIndex } from '../../../core/checkpoint-files/model-folder-read.js';
import type { MemoryEntry } from '../../../core/checkpoint-files/folder-files.js';
import type { RunFiles } from '../../checkpoint-run/client.js';
import { NOT_ON_THE_WEB } from '../not-on-web-text.js';

/** The most bytes of a model's files a run on the web reads: a tab holds them (and the worker a copy) beside the run's own memory. */
export const MAX_WEB_MODEL_BYTES = 512 * 2 ** 20;

export type WebModelPlace = { folder: string; files: RunFiles } | { problem: string };

/** "gpt2" or "org/name": what the Hugging Face cache would be asked for (model-location.ts's rule). */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$/;

const isAbsolutePath = (p: string) => p.startsWith('/') || p.startsWith('\\') || /^[a-zA-Z]:/.test(p) || /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(p);

/** Bytes in MiB to a tenth, rounded up (so a size just over a limit never reads as the limit). */
function mib(bytes: number): string {
  return `${(Math.ceil(bytes / 2 ** 20 * 10) / 10).toFixed(1)} MiB`;
}

/** Whether `uri` is a workspace folder or lies below one. */
function inWorkspace(uri: vscode.Uri): boolean {
  return (vscode.workspace.workspaceFolders ?? []).some(({ uri: root }) => root.scheme === uri.scheme && root.authority === uri.authority
    && (uri.path === root.path || uri.path.startsWith(root.path.endsWith('/') ? root.path : `${root.path}/`)));
}

async function statOf(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
  try {
    return await vscode.workspace.fs.stat(uri);
  } catch {
    return undefined;
  }
}

export class WebModelFiles {
  private last: { key: string; files: RunFiles } | undefined;

  /** `budget`: the most bytes of a model's files read (MAX_WEB_MODEL_BYTES unless a test says). */
  constructor(private readonly budget = MAX_WEB_MODEL_BYTES) {}

  /** The folder of the model `model` names in the spec at `spec`, with its files; or why it cannot run here. */
  async locate(model: string, spec: vscode.Uri): Promise<WebModelPlace> {
    if (model.includes('\0')) return { problem: 'the model name holds a NUL character' };
    if (isAbsolutePath(model)) return { problem: `${model}: a model at an absolute path is read from a disk, which ${NOT_ON_THE_WEB} (or put the model in a folder beside the spec)` };
    if (model.split(/[\\/]/).includes('..')) return { problem: 'the model folder must be beside the spec or below it ("..", going up, is not allowed)' };
    if (spec.scheme === 'untitled') return { problem: 'an untitled spec has no folder to find its model beside: save it in the workspace, beside the model\'s folder' };
    if (!inWorkspace(spec)) return { problem: 'this spec is outside the workspace\'s folders, and VS Code for the Web reads a model only inside them: open the folder that holds the spec and its model' };
    const folder = vscode.Uri.joinPath(spec, '..', ...model.split(/[\\/]/).filter((p) => p !== '' && p !== '.'));
    const stat = await statOf(folder);
    if (!stat || !(stat.type & vscode.FileType.Directory)) {
      const beside = `no folder ${JSON.stringify(model)} beside the spec`;
      if (MODEL_ID.test(model)) return { problem: `${beside}, and a model named by its Hugging Face id is read from the Hugging Face cache on a disk, which ${NOT_ON_THE_WEB}` };
      return { problem: beside };
    }
    return this.read(folder);
  }

  /** The folder's files a model reader may open, within the budget. */
  private async read(folder: vscode.Uri): Promise<WebModelPlace> {
    const at = (name: string) => vscode.Uri.joinPath(folder, name);
    const stats = new Map<string, vscode.FileStat>();
    const look = async (names: readonly string[]) => {
      const found = await Promise.all(names.map((name) => statOf(at(name))));
      names.forEach((name, i) => { if (found[i]) stats.set(name, found[i]!); });
    };
    await look(MODEL_FILE_NAMES);
    // The index names the shards: read it first (its own limit), refused here as the disk's reader refuses it.
    const index = stats.get('model.safetensors.index.json');
    let indexBytes: Uint8Array | undefined;
    if (index && !(index.type & vscode.FileType.Directory)) {
      const where = at('model.safetensors.index.json').toString();
      if (index.size > MAX_CONFIG_BYTES) return { problem: `${where}: more than ${MAX_CONFIG_BYTES} bytes, too large for a model.safetensors.index.json` };
      indexBytes = await vscode.workspace.fs.readFile(at('model.safetensors.index.json'));
      try {
        await look([...readIndex(where, new TextDecoder().decode(indexBytes)).keys()].filter((n) => !stats.has(n)));
      } catch (e) {
        return { problem: e instanceof Error ? e.message : String(e) };
      }
    }
    // Every file stat'ed before any is read: the first one past the budget is named, with the total.
    let total = 0;
    for (const [name, s] of stats) {
      if (s.type & vscode.FileType.Directory) continue;
      total += s.size;
      if (total > this.budget) {
        return { problem: `${at(name).toString()}: ${mib(s.size)}, which brings the model's files to ${mib(total)}, over the ${mib(this.budget)} VS Code for the Web reads for a model run: run this model in VS Code on the desktop` };
      }
    }
    const key = JSON.stringify([folder.toString(), ...[...stats].map(([name, s]) => [name, s.type, s.size, s.mtime])]);
    if (this.last?.key === key) return { folder: folder.toString(), files: this.last.files };
    const entries = new Map<string, MemoryEntry>();
    try {
      await Promise.all([...stats].map(async ([name, s]) => {
        entries.set(name, s.type & vscode.FileType.Directory ? 'folder' : name === 'model.safetensors.index.json' && indexBytes ? indexBytes : await vscode.workspace.fs.readFile(at(name)));
      }));
    } catch (e) {
      return { problem: `${folder.toString()}: a file of the model could not be read (${e instanceof Error ? e.message : String(e)})` };
    }
    const files = { key, entries };
    this.last = { key, files };
    return { folder: folder.toString(), files };
  }
}
