// What a model reader holds and answers, wherever it runs: a worker thread of the desktop
// (worker.ts, which opens files on disk), a Web Worker of the web build (web/model-editor/scan-worker.ts)
// or the web host's own thread where there is no Worker (in-thread-lane.ts). It holds one open
// attention source: a file on disk (when its runtime can open one), bytes read beforehand (the web
// build reads them through vscode.workspace.fs and transfers them here), or attention the host holds;
// every other request is a read of it (read-answer.ts). No Node here: the web bundles take it.
import { attentionFrom, sidecarPath, sidecarTooLarge, tokensOfSidecar, MAX_TOKENS_FILE_BYTES, type OpenOptions } from '../../core/files/attention-bytes.js';
import type { AttentionSource } from '../../core/tensors/attention-source.js';
import { memorySource, TensorFileError } from '../../core/tensors/source.js';
import { checkInflatedTotal, entrySource, zipEntries, type ZipEntry } from '../../core/files/zip.js';
import type { NpzReader } from '../../core/tensors/find-tensors.js';
import { crc32Table } from '../../core/crc32.js';
import { shapeOf } from '../../core/model-attention/scan.js';
import { payloadAttention } from '../../core/model-attention/payload.js';
import { answerRead, errorReply } from './read-answer.js';
import type { ReaderRequest, ReaderResponse } from '../../protocol/model-reader.js';

/**
 * A file's bytes, read by the host, to be opened from memory. `sidecar`: the bytes of its tokens
 * file (X.tokens.json), or why that could not be read; absent when there is none. `inflated`: an
 * .npz's deflated members the host inflated (the web has no synchronous zlib), by name, or why not.
 */
export interface BytesRequest {
  id: number; op: 'openBytes'; name: string; bytes: ArrayBuffer; open?: OpenOptions; sidecar?: Uint8Array | string;
  inflated?: Record<string, ArrayBuffer | string>;
}

/** Every request a reader answers. */
export type FileRequest = ReaderRequest | BytesRequest;

export interface FileAnswer { response: ReaderResponse; transfer: ArrayBuffer[] }

/** Opens a file by its path (the desktop's node:fs); absent where there is no disk. */
export type PathOpener = (path: string, open: OpenOptions) => AttentionSource;

/**
 * An .npz's members: stored ones read in place, deflated ones taken from what the host inflated,
 * checked as a disk's are (with the pure CRC-32 table: node:zlib's native one is not here; the same numbers).
 */
function npzOf(inflated: BytesRequest['inflated']): NpzReader<ZipEntry> {
  const inflate = (_deflated: Uint8Array, e: ZipEntry): Uint8Array => {
    const held = inflated && Object.hasOwn(inflated, e.name) ? inflated[e.name] : undefined;
    if (held === undefined) throw new Error('it was not inflated before it was read');
    if (typeof held === 'string') throw new Error(held);
    return new Uint8Array(held);
  };
  return { zipEntries, checkInflatedTotal, entrySource: (source, entry) => entrySource(source, entry, { inflate, crc32: crc32Table }) };
}

/** The attention in bytes a host read (`name`: the file's, as messages say it). */
export function attentionOfBytes(r: Omit<BytesRequest, 'id' | 'op'>): AttentionSource {
  const { name, sidecar } = r;
  const tokensFile = sidecarPath(name);
  return attentionFrom(memorySource(name, new Uint8Array(r.bytes)), r.open ?? {}, {
    npz: npzOf(r.inflated),
    ...(sidecar === undefined || tokensFile === name ? {} : {
      sidecar: () => {
        // Said only when the attention has no tokens of its own, as a disk's tokens file is read only then.
        if (typeof sidecar === 'string') throw new TensorFileError(sidecar);
        if (sidecar.byteLength > MAX_TOKENS_FILE_BYTES) throw new TensorFileError(sidecarTooLarge(tokensFile));
        return tokensOfSidecar(tokensFile, sidecar);
      },
    }),
  });
}

/** A reader's state and its answers, one request at a time. */
export class FileAnswers {
  private file: AttentionSource | undefined;

  constructor(private readonly openPath?: PathOpener) {}

  answer(r: FileRequest): FileAnswer {
    try {
      switch (r.op) {
        case 'open':
          if (!this.openPath) throw new TensorFileError(`${r.path}: this reader has no disk to open a file from`);
          return this.opened(r.id, () => this.openPath!(r.path, r.open ?? {}));
        case 'openBytes':
          return this.opened(r.id, () => attentionOfBytes(r));
        case 'openHeld': {
          const { held } = r;
          return this.opened(r.id, () => payloadAttention({ ...held, title: held.name }, new Uint8Array(held.values), held.name));
        }
        case 'close':
          this.close();
          return { response: { id: r.id, ok: true }, transfer: [] };
        default:
          return answerRead(this.file, r);
      }
    } catch (e) {
      return { response: errorReply(r.id, e), transfer: [] };
    }
  }

  close(): void {
    this.file?.close();
    this.file = undefined;
  }

  private opened(id: number, open: () => AttentionSource): FileAnswer {
    this.close();
    this.file = open();
    return { response: { id, ok: true, shape: shapeOf(this.file) }, transfer: [] };
  }
}
