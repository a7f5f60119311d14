// The model app's requests answered from an attention held in memory (a notebook output's payload,
// the offline page of the Python package), as the model editor's host answers them from a file
// (src/host/model-editor/answer.ts): 'ready' gets the header and the thumbnails of one scan, a head
// comes whole up to WHOLE_HEAD_MAX tokens and as its picture above, a window of exact weights and the
// rollout on request. Every request is checked first (a message is untrusted until checked); the
// answers are checked by the app as the host's are. What only a host can do (the softmax, export,
// the 'painted' reports) is left to the caller.
import { WHOLE_HEAD_MAX } from '../core/model-attention/data.js';
import { headFloat32, headPicture, headWindow, rolloutOf, scanModel } from '../core/model-attention/scan.js';
import type { AttentionSource } from '../core/tensors/attention-source.js';
import { TensorFileError } from '../core/tensors/source.js';
import { webviewMessageProblem, type ModelHostMessage, type ModelWebviewMessage } from './model-editor.js';

export class MemoryModel {
  private scanned: ReturnType<typeof scanModel> | undefined;

  constructor(private readonly attention: AttentionSource) {}

  /** The answer to one request of the app, or undefined for a request that asks nothing of the data (or is refused). */
  answer(m: unknown): ModelHostMessage | undefined {
    const a = this.attention;
    if (webviewMessageProblem(m, { layers: a.layers, heads: a.heads, tokens: a.n })) return undefined;
    const message = m as ModelWebviewMessage;
    try {
      switch (message.type) {
        case 'ready': {
          this.scanned ??= scanModel(a);
          // The app keeps (and fills) the thumbnails it is given: a copy each time, so a second 'ready' starts clean.
          return { type: 'model', header: this.scanned.header, thumbnails: this.scanned.thumbnails.slice() };
        }
        case 'head': {
          const { layer, head } = message;
          if (a.n <= WHOLE_HEAD_MAX) return { type: 'head', layer, head, weights: headFloat32(a, layer, head) };
          const { res, indices, max } = headPicture(a, layer, head);
          return { type: 'head', layer, head, picture: { res, indices }, max };
        }
        case 'window': {
          const { layer, head, i0, rows, j0, cols } = message;
          return { type: 'window', layer, head, i0, rows, j0, cols, weights: headWindow(a, layer, head, i0, rows, j0, cols) };
        }
        case 'rollout': return { type: 'rollout', rollout: rolloutOf(a) ?? null };
        default: return undefined;
      }
    } catch (e) {
      if (e instanceof TensorFileError || e instanceof RangeError) return { type: 'error', message: e.message };
      throw e;
    }
  }
}

/**
 * A post function for the app: each request answered a moment later (as a host's answer comes), the
 * answer handed to `deliver`; `other` gets the requests the data does not answer.
 */
export function memoryPost(model: MemoryModel, deliver: (reply: ModelHostMessage) => void, other: (m: ModelWebviewMessage) => void = () => {}): (m: ModelWebviewMessage) => void {
  return (m) => {
    queueMicrotask(() => {
      const reply = model.answer(m);
      if (reply) deliver(reply);
      else other(m);
    });
  };
}
