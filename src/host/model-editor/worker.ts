// The model editor's reader, in a worker thread: the streaming pass over a model file (seconds at
// 4 × 8 × 4,096) and the rollout (n³ per layer) would otherwise stall the extension host. The
// worker holds one open file and answers one request at a time (several workers share a scan,
// each a range of heads); results go back as transferred ArrayBuffers. Bundled by scripts/build.mjs as dist/model-worker.js.
import { parentPort } from 'node:worker_threads';
import { openAttention } from '../../core/files/open.js';
import type { AttentionFile } from '../../core/tensors/attention-file.js';
import { headFloat32, headPicture, headWindow, passOverRange, rolloutOf, shapeOf } from '../../core/model/scan.js';
import type { ReaderRequest, ReaderResponse } from '../../protocol/model-reader.js';

let file: AttentionFile | undefined;

function answer(r: ReaderRequest): { response: ReaderResponse; transfer: ArrayBuffer[] } {
  try {
    switch (r.op) {
      case 'open': {
        file?.close();
        file = undefined;
        file = openAttention(r.path, r.open ?? {});
        return { response: { id: r.id, ok: true, shape: shapeOf(file) }, transfer: [] };
      }
      case 'pass': {
        if (!file) throw new Error('no file is open');
        const t0 = performance.now();
        const pass = passOverRange(file, r.from, r.to, r.options);
        const pictures = (pass.pictures ?? []).map((p) => p.indices.buffer as ArrayBuffer);
        return { response: { id: r.id, ok: true, pass, ms: performance.now() - t0 }, transfer: [pass.thumbnails.buffer as ArrayBuffer, ...pictures] };
      }
      case 'head': {
        if (!file) throw new Error('no file is open');
        const weights = headFloat32(file, r.layer, r.head, r.options);
        return { response: { id: r.id, ok: true, weights }, transfer: [weights.buffer as ArrayBuffer] };
      }
      case 'picture': {
        if (!file) throw new Error('no file is open');
        const picture = headPicture(file, r.layer, r.head, r.options);
        return { response: { id: r.id, ok: true, picture }, transfer: [picture.indices.buffer as ArrayBuffer] };
      }
      case 'window': {
        if (!file) throw new Error('no file is open');
        const weights = headWindow(file, r.layer, r.head, r.i0, r.rows, r.j0, r.cols, r.options);
        return { response: { id: r.id, ok: true, weights }, transfer: [weights.buffer as ArrayBuffer] };
      }
      case 'rollout': {
        if (!file) throw new Error('no file is open');
        const rollout = rolloutOf(file, r.options) ?? null;
        return { response: { id: r.id, ok: true, rollout }, transfer: rollout ? [rollout.buffer as ArrayBuffer] : [] };
      }
      case 'close':
        file?.close();
        file = undefined;
        return { response: { id: r.id, ok: true }, transfer: [] };
    }
  } catch (e) {
    return { response: { id: r.id, ok: false, error: e instanceof Error ? e.message : String(e), tensorError: e instanceof Error && e.name === 'TensorFileError' }, transfer: [] };
  }
}

parentPort?.on('message', (r: ReaderRequest) => {
  const { response, transfer } = answer(r);
  parentPort!.postMessage(response, transfer);
});
