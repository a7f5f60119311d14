// Where a model spec's model is on the web, and its files: read through vscode.workspace.fs (there is
// no disk), then handed to the run (client.ts RunFiles) and opened there from memory by the same reader
// the desktop uses on a disk (core/checkpoint-files/model-folder-read.ts: same checks, same messages).
// Only the files that reader opens are looked at (the index and its shards, or model.safetensors;
// tokenizer.json, or the vocabularies), each stat'ed first: a pipe or a device (which a read would
// wait on for ever), a small file over its own limit, or a total over what the browser keeps is
// refused before any byte is read, in one line naming the file. Only a folder beside the spec or
// below it, inside the workspace's folders, is read: a model named by its Hugging Face id (the cache
// is on a disk), an absolute path, or a folder outside the workspace says in one line why not. No copy
// is kept here: the files are read when the run's worker lacks them (the key says whether they changed).
import * as vscode from 'vscode';
import { filesOpened, MAX_CONFIG_BYTES, MODEL_FILE_NAMES, notRegularText, readIndex, readLimit, tooLargeText } from '../../../core/checkpoint-files/model-folder-read.js';
import type { MemoryEntry } from '../../../core/checkpoint-files/folder-files.js';
import { badFileName } from '../../../core/spec/read/file-name.js';
import type { RunFiles } from '../../checkpoint-run/client.js';
import { NOT_ON_THE_WEB } from '../not-on-web-text.js';
import { mib } from '../../../core/files/mib.js';
import { inWorkspace } from '../in-workspace.js';

/** The most bytes of a model's files a run on the web reads: a tab holds them (in the run's worker) beside the run's own memory. */
export const MAX_WEB_MODEL_BYTES = 512 * 2 ** 20;

export type WebModelPlace = { folder: string; files: RunFiles } | { problem: string };

/** "gpt2" or "org/name": what the Hugging Face cache would be asked for (model-location.ts's rule). */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$/;

/** badFileName's sentence for an absolute path (the web says more: it is a disk's). */
const ABSOLUTE = badFileName('/');

/** What VS Code reports that is neither a file nor a folder (a pipe, a socket, a device: type Unknown). */
const NOT_A_FILE = 'neither a file nor a folder: a pipe, a socket or a device';


async function statOf(uri: vscode.Uri): Promise<vscode.FileStat | undefined> {
  try {
    return await vscode.workspace.fs.stat(uri);
  } catch {
    return undefined;
  }
}

const isFolder = (s: vscode.FileStat) => (s.type & vscode.FileType.Directory) !== 0;
const isFile = (s: vscode.FileStat) => (s.type & vscode.FileType.File) !== 0;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class WebModelFiles {
  /** `budget`: the most bytes of a model's files read (MAX_WEB_MODEL_BYTES unless a test says). */
  constructor(private readonly budget = MAX_WEB_MODEL_BYTES) {}

  /** The folder of the model `model` names in the spec at `spec`, with its files (stat'ed, read later); or why it cannot run here. */
  async locate(model: string, spec: vscode.Uri): Promise<WebModelPlace> {
    const bad = badFileName(model);
    if (bad === ABSOLUTE) return { problem: `${model}: a model at an absolute path is read from a disk, which ${NOT_ON_THE_WEB} (or put the model in a folder beside the spec)` };
    if (bad) return { problem: bad.replace(/^the file/, 'the model folder') };
    if (spec.scheme === 'untitled') return { problem: 'an untitled spec has no folder to find its model beside: save it in the workspace, beside the model\'s folder' };
    if (!inWorkspace(spec)) return { problem: 'this spec is outside the workspace\'s folders, and VS Code for the Web reads a model only inside them: open the folder that holds the spec and its model' };
    const folder = vscode.Uri.joinPath(spec, '..', ...model.split(/[\\/]/).filter((p) => p !== '' && p !== '.'));
    const stat = await statOf(folder);
    if (!stat || !isFolder(stat)) {
      const beside = `no folder ${JSON.stringify(model)} beside the spec`;
      if (MODEL_ID.test(model)) return { problem: `${beside}, and a model named by its Hugging Face id is read from the Hugging Face cache on a disk, which ${NOT_ON_THE_WEB}` };
      return { problem: beside };
    }
    try {
      return await this.look(folder);
    } catch (e) {
      return { problem: `${folder.toString()}: a file of the model could not be read (${message(e)})` };
    }
  }

  /** The files the folder's reader opens, stat'ed and checked; the index read for its shards' names. */
  private async look(folder: vscode.Uri): Promise<WebModelPlace> {
    const at = (name: string) => vscode.Uri.joinPath(folder, name);
    const stats = new Map<string, vscode.FileStat>();
    const look = async (names: readonly string[]) => {
      const found = await Promise.all(names.map((name) => statOf(at(name))));
      names.forEach((name, i) => { if (found[i]) stats.set(name, found[i]!); });
    };
    // A stat is cheap; a read is what counts: every name stat'ed, only what the reader opens read.
    await look(MODEL_FILE_NAMES);
    const names = filesOpened((name) => stats.has(name));
    const problem = this.checkStats(at, names, stats);
    if (problem) return { problem };
    // The index names the shards: read it (its limit checked above), refused here as the disk's reader refuses it.
    let indexBytes: Uint8Array | undefined;
    const indexStat = stats.get('model.safetensors.index.json');
    if (indexStat && isFile(indexStat)) {
      const where = at('model.safetensors.index.json').toString();
      indexBytes = await vscode.workspace.fs.readFile(at('model.safetensors.index.json'));
      if (indexBytes.byteLength > MAX_CONFIG_BYTES) return { problem: tooLargeText(where, 'model.safetensors.index.json', MAX_CONFIG_BYTES) };
      let shards: string[];
      try {
        shards = [...readIndex(where, new TextDecoder().decode(indexBytes)).keys()];
      } catch (e) {
        return { problem: message(e) };
      }
      await look(shards.filter((n) => !stats.has(n)));
      names.push(...shards.filter((n) => stats.has(n) && !names.includes(n)));
      const shardProblem = this.checkStats(at, names, stats);
      if (shardProblem) return { problem: shardProblem };
    }
    const key = JSON.stringify([folder.toString(), ...names.map((name) => { const s = stats.get(name)!; return [name, s.type, s.size, s.mtime]; })]);
    const index = indexBytes;
    return { folder: folder.toString(), files: { key, read: () => this.read(folder, names, stats, index) } };
  }

  /** Why the stat'ed files cannot be read (a pipe or a device, a file over its limit, a total over the budget), or undefined. */
  private checkStats(at: (name: string) => vscode.Uri, names: readonly string[], stats: ReadonlyMap<string, vscode.FileStat>): string | undefined {
    let total = 0;
    for (const name of names) {
      const s = stats.get(name)!;
      if (isFolder(s)) continue; // the reader says a folder is not a file, in its own words
      const where = at(name).toString();
      if (!isFile(s)) return readLimit(name) === undefined ? `${where}: not a regular file but ${NOT_A_FILE}` : notRegularText(where, name, NOT_A_FILE);
      const limit = readLimit(name);
      if (limit !== undefined && s.size > limit) return tooLargeText(where, name, limit);
      total += s.size;
      if (total > this.budget) return this.overBudget(where, s.size, total);
    }
    return undefined;
  }

  private overBudget(where: string, size: number, total: number): string {
    return `${where}: ${mib(size)}, which brings the model's files to ${mib(total)}, over the ${mib(this.budget)} VS Code for the Web reads for a model run: run this model in VS Code on the desktop`;
  }

  /** The files' bytes, re-checked once read (a file that grew since its stat is refused as the stat would have been). */
  private async read(folder: vscode.Uri, names: readonly string[], stats: ReadonlyMap<string, vscode.FileStat>, indexBytes: Uint8Array | undefined): Promise<{ entries: ReadonlyMap<string, MemoryEntry> } | { problem: string }> {
    const at = (name: string) => vscode.Uri.joinPath(folder, name);
    const entries = new Map<string, MemoryEntry>();
    try {
      await Promise.all(names.map(async (name) => {
        const s = stats.get(name)!;
        entries.set(name, isFolder(s) ? 'folder' : name === 'model.safetensors.index.json' && indexBytes ? indexBytes : await vscode.workspace.fs.readFile(at(name)));
      }));
    } catch (e) {
      return { problem: `${folder.toString()}: a file of the model could not be read (${message(e)})` };
    }
    let total = 0;
    for (const name of names) {
      const bytes = entries.get(name);
      if (!(bytes instanceof Uint8Array)) continue;
      const where = at(name).toString();
      const limit = readLimit(name);
      if (limit !== undefined && bytes.byteLength > limit) return { problem: tooLargeText(where, name, limit) };
      total += bytes.byteLength;
      if (total > this.budget) return { problem: this.overBudget(where, bytes.byteLength, total) };
    }
    return { entries };
  }
}
