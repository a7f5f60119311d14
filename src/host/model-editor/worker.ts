// The model editor's reader, in a worker thread: the streaming pass over a model file (seconds at
// 4 × 8 × 4,096) and the rollout (n³ per layer) would otherwise stall the extension host. The
// worker holds one open file (or attention the host holds in shared memory, a notebook output's,
// read in place) and answers one request at a time (several workers share a scan, each a range of
// heads); results go back as transferred ArrayBuffers. Bundled by scripts/build.mjs as dist/scan-worker.js.
import { parentPort } from 'node:worker_threads';
import { openAttention } from '../../core/files/open.js';
import type { AttentionSource } from '../../core/tensors/attention-source.js';
import { shapeOf } from '../../core/model-attention/scan.js';
import { payloadAttention } from '../../core/model-attention/payload.js';
import { answerRead, errorReply } from './read-answer.js';
import type { ReaderRequest, ReaderResponse } from '../../protocol/model-reader.js';

let file: AttentionSource | undefined;

function answer(r: ReaderRequest): { response: ReaderResponse; transfer: ArrayBuffer[] } {
  try {
    switch (r.op) {
      case 'open': {
        file?.close();
        file = undefined;
        file = openAttention(r.path, r.open ?? {});
        return { response: { id: r.id, ok: true, shape: shapeOf(file) }, transfer: [] };
      }
      case 'openHeld': {
        file?.close();
        file = undefined;
        const { held } = r;
        file = payloadAttention({ ...held, title: held.name }, new Uint8Array(held.values), held.name);
        return { response: { id: r.id, ok: true, shape: shapeOf(file) }, transfer: [] };
      }
      case 'close':
        file?.close();
        file = undefined;
        return { response: { id: r.id, ok: true }, transfer: [] };
      default:
        return answerRead(file, r);
    }
  } catch (e) {
    return { response: errorReply(r.id, e), transfer: [] };
  }
}

parentPort?.on('message', (r: ReaderRequest) => {
  const { response, transfer } = answer(r);
  parentPort!.postMessage(response, transfer);
});
