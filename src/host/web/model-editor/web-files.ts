// The web build's model files: any file vscode.workspace.fs reads (vscode.dev's, github.dev's, a
// code-server's), its bytes read whole into memory first (stat, then readFile; the core reads at
// offsets synchronously, which workspace.fs cannot), then opened from memory by the same code as a
// disk's file, and scanned in a Web Worker (dist/web/scan-worker.js, the bytes transferred to it, not
// copied) where the runtime gives one, else (or when it does not start) on the host's thread in
// slices between events (in-thread-lane.ts). The editor is the desktop's (model-editor/editor.ts): only this differs.
import * as vscode from 'vscode';
import { MAX_TOKENS_FILE_BYTES, sidecarPath, sidecarTooLarge, TENSOR_FILE_IS_REGULAR } from '../../../core/files/attention-bytes.js';
import { ModelReader, ReaderError, type FileOpening, type ReaderLanes } from '../../model-editor/reader.js';
import { FileAnswers } from '../../model-editor/file-answers.js';
import { InThreadLane } from '../../model-editor/in-thread-lane.js';
import type { ModelFiles } from '../../model-editor/model-files.js';
import { webWorkersHere } from '../analysis-lanes.js';
import { WebWorkerLane } from '../web-worker-lane.js';
import { WorkerOrThread } from './worker-or-thread.js';
import { workerScriptUrl } from '../worker-script.js';
import { mib } from '../spec-files.js';
import { inflateMembers, MembersOverRoom } from './npz-members.js';
import { log } from '../../log.js';

export const SCAN_WORKER_SCRIPT = ['dist', 'web', 'scan-worker.js'] as const;

/**
 * The largest attention file the model editor reads on the web. A tab holds the whole file in memory
 * (the desktop reads at offsets): 512 MiB is 12 × 12 × 1,024² F16 weights (302 MB) with room, the
 * most the desktop inflates of an .npz's members too, and well within what one tab can allocate
 * (Chrome refuses single buffers past 2 GiB, and tabs die sooner on small machines). The bytes are
 * held once: readFile's copy is transferred to the worker, not cloned.
 */
export const MAX_WEB_MODEL_FILE_BYTES = 512 * 2 ** 20;

/** The sentence for a file over the limit: its name, its size and the limit. */
export function tooLargeOnTheWeb(name: string, size: number): string {
  return `${name}: ${mib(size)}, over the ${mib(MAX_WEB_MODEL_FILE_BYTES)} the model editor reads into memory in VS Code for the Web; open it in VS Code on the desktop, which reads it from disk at offsets`;
}

/**
 * What a stat that is no file is, in words; undefined for a file. VS Code's stat says FileType.Unknown,
 * size 0, for a pipe, a device or a socket: within any limit, and a read of a pipe waits for a writer
 * for ever, so only a file (links followed) is read.
 */
export function notAFile(stat: vscode.FileStat): string | undefined {
  if (stat.type & vscode.FileType.File) return undefined;
  return stat.type & vscode.FileType.Directory ? 'a directory' : 'a pipe, device or socket';
}

/** The sentence for an .npz whose deflated members, inflated, would be held past the limit with the file. */
function inflatedTooLarge(name: string, fileBytes: number, membersBytes: number): string {
  return `${name}: ${mib(fileBytes)} with ${mib(membersBytes)} of deflated members to inflate, over the ${mib(MAX_WEB_MODEL_FILE_BYTES)} the model editor holds in memory in VS Code for the Web; save it with np.savez (not compressed), or open it in VS Code on the desktop`;
}

/** `workers`: whether readers run in Web Workers (default: where the runtime gives them). */
export function webModelFiles(extensionUri: vscode.Uri, workers = webWorkersHere()): ModelFiles {
  const lanes: ReaderLanes = workers
    ? {
      lane: (_job, options) => new WorkerOrThread(
        () => new WebWorkerLane(workerScriptUrl(extensionUri, ...SCAN_WORKER_SCRIPT), options, 'scan'),
        () => new InThreadLane(new FileAnswers(), options),
        (why) => log().warn(`model editor: ${why}; reading the file on the host's thread, between events`),
      ),
    }
    : { lane: (_job, options) => new InThreadLane(new FileAnswers(), options) };
  log().info(`model editor: attention files are read through workspace.fs and scanned ${workers ? 'in a Web Worker' : 'on the host\'s thread, between events (no Web Worker here)'}`);
  return {
    // Whatever workspace.fs reads: the document's "path" is the file's URI.
    pathOf: (uri) => ({ path: uri.toString() }),
    newReader: () => new ModelReader(lanes, undefined, readModelFile),
    // One reader per file: a helper would read and hold the whole file again.
    helperCount: () => 0,
  };
}

/** Opens the file at the URI `path` from its bytes, read through workspace.fs within the limit, with its tokens file if it has one. */
export const readModelFile: FileOpening = async (path, open) => {
  const uri = vscode.Uri.parse(path);
  const name = uri.path;
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch (e) {
    throw new ReaderError(`${name}: cannot be read (${e instanceof Error ? e.message : String(e)})`, true);
  }
  const kind = notAFile(stat);
  if (kind) throw new ReaderError(`${name}: not a regular file but ${kind}${TENSOR_FILE_IS_REGULAR}`, true);
  if (stat.size > MAX_WEB_MODEL_FILE_BYTES) throw new ReaderError(tooLargeOnTheWeb(name, stat.size), true);
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (e) {
    throw new ReaderError(`${name}: cannot be read (${e instanceof Error ? e.message : String(e)})`, true);
  }
  // It may have grown since its stat.
  if (bytes.byteLength > MAX_WEB_MODEL_FILE_BYTES) throw new ReaderError(tooLargeOnTheWeb(name, bytes.byteLength), true);
  // An .npz's deflated members, inflated here (the reader has no synchronous zlib): held with the file, within the same limit.
  // Refused from the members' declared sizes before any is inflated: the peak is the file and its members.
  let inflated;
  try {
    inflated = await inflateMembers(name, bytes, open, MAX_WEB_MODEL_FILE_BYTES - bytes.byteLength);
  } catch (e) {
    if (!(e instanceof MembersOverRoom)) throw e;
    throw new ReaderError(inflatedTooLarge(name, bytes.byteLength, e.declared), true);
  }
  const members = Object.values(inflated ?? {}).filter((m): m is ArrayBuffer => typeof m !== 'string');
  const held = members.reduce((sum, m) => sum + m.byteLength, bytes.byteLength);
  if (held > MAX_WEB_MODEL_FILE_BYTES) throw new ReaderError(inflatedTooLarge(name, bytes.byteLength, held - bytes.byteLength), true);
  const sidecar = await readSidecar(uri);
  // A buffer of its own, to transfer: readFile's array may be a view on a larger one.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  const buffer = whole ? bytes.buffer as ArrayBuffer : bytes.slice().buffer;
  return {
    request: { op: 'openBytes', name, bytes: buffer, ...(open ? { open } : {}), ...(sidecar !== undefined ? { sidecar } : {}), ...(inflated ? { inflated } : {}) },
    transfer: [buffer, ...members],
  };
};

/** X.tokens.json beside X: its bytes, or why they were not read; undefined when there is none. */
async function readSidecar(uri: vscode.Uri): Promise<Uint8Array | string | undefined> {
  const path = sidecarPath(uri.path);
  if (path === uri.path) return undefined;
  const sidecar = uri.with({ path });
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(sidecar);
  } catch {
    return undefined;
  }
  const kind = notAFile(stat);
  if (kind) return `${path}: not a regular file (${kind}); a tokens file is a JSON array of strings`;
  if (stat.size > MAX_TOKENS_FILE_BYTES) return sidecarTooLarge(path);
  try {
    return await vscode.workspace.fs.readFile(sidecar);
  } catch (e) {
    return `${path}: cannot open (${e instanceof Error ? e.message : String(e)})`;
  }
}
