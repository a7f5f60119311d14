// The model editor's answers to its webview: every message is checked first (webviewMessageProblem,
// against the file's shape; a webview is untrusted), then 'ready' gets the snapshot, 'softmax' moves
// the editor to the softmax's scan, and a head, a block of exact weights, a tile or the rollout is
// read by the document's reader and posted back. A small head goes whole; a big one as its picture
// (the one the scan kept, so a switch reads nothing, else read now) and its map, with exact weights
// in windows and tiles of the map on request: a tile at a level the scan's pyramid keeps is cut from
// it here (nothing read), a deeper one is read from the file by the reader; a model run that kept q
// and k keeps no pyramid, and computes every tile from them (one at a time, for the head shown).
// Pure (no VS Code): webview.ts passes each message here; tests call it as a webview would.
import { WHOLE_HEAD_MAX } from '../../core/model-attention/data.js';
import { blankTile, headMapOf, sinkColumnsOf, tileFromPyramid } from '../../core/model-attention/tiles.js';
import { pyramidBase } from '../../core/tensors/map/pyramid.js';
import { ReaderError } from './reader.js';
import { webviewMessageProblem, type ModelWebviewMessage } from '../../protocol/model-editor.js';
import type { ModelView } from './view.js';

/** Handles one message from `view`'s webview; settles once any answer is posted (or dropped). */
export async function receive(view: ModelView, m: unknown): Promise<void> {
  const shape = view.shape;
  const problem = webviewMessageProblem(m, shape);
  if (problem) {
    view.log.warn(`model editor: ignored a message from the webview: ${problem}`);
    // A request made while the file cannot be read (a model spec broken since its last run): the
    // webview hears why instead of waiting on "loading…" for an answer that never comes.
    if (!shape) view.explainFailure();
    return;
  }
  const message = m as ModelWebviewMessage;
  const options = view.options;
  switch (message.type) {
    case 'ready': view.ready(); return;
    case 'softmax': view.scanWith({ softmax: true }); return;
    case 'head': {
      const { layer, head } = message;
      const asked = view.headAsked(layer, head);
      return view.answer(async (reader, scan) => {
        // Norms come with ‖v W_O‖ of each key, so the hover can write α × ‖v W_O‖ = the norm.
        const valueNorms = options.norms && reader.valueNorms ? { valueNorms: await reader.valueNorms(layer, head) } : {};
        if (shape!.tokens <= WHOLE_HEAD_MAX) {
          const weights = await reader.head(layer, head, options);
          view.headRead(asked);
          return { type: 'head', layer, head, weights, ...valueNorms };
        }
        const flat = layer * shape!.heads + head;
        const kept = scan.pictures[flat];
        const { res, indices, max } = kept ?? await reader.picture(layer, head, options);
        const part = scan.mapOf(flat);
        // A run that keeps q and k has no pyramid: its reader makes the map.
        const map = part ? headMapOf(shape!.tokens, part) : await reader.map?.(layer, head, options);
        view.headRead(asked);
        return { type: 'head', layer, head, picture: { res, indices }, max, ...(map ? { map } : {}), ...valueNorms };
      });
    }
    case 'window': {
      const { layer, head, i0, rows, j0, cols } = message;
      return view.answer(async (reader) => ({ type: 'window', layer, head, i0, rows, j0, cols, weights: await reader.window(layer, head, i0, rows, j0, cols, options) }));
    }
    case 'tile': {
      const { layer, head, level, i0, j0, rows, cols } = message;
      return view.answer(async (reader, scan) => {
        const flat = layer * shape!.heads + head;
        const part = scan.mapOf(flat);
        const cut = part ? tileFromPyramid(part, shape!.tokens, level, i0, j0, rows, cols) : undefined;
        if (cut) return { type: 'tile', layer, head, ...cut };
        // A level the scan's pyramid will hold, of a head it has not reached yet: blank until its
        // first band is in (reading the head for it would take as long as its scan).
        const base = shape!.tokens > WHOLE_HEAD_MAX ? pyramidBase(shape!.layers * shape!.heads, shape!.tokens) : undefined;
        if (!part && !reader.map && !scan.finished && !scan.error && base !== undefined && level >= base) return { type: 'tile', layer, head, ...blankTile(shape!.tokens, level, i0, j0, rows, cols) };
        if (!reader.tile) throw new ReaderError('this attention is not read in tiles', false);
        // A head read whole: its sinks' columns are here, and the worker reads only the tile's keys.
        if (part && scan.headRead(flat)) {
          const tile = await reader.tile(layer, head, level, i0, j0, rows, cols, options, false);
          const sinkColumns = sinkColumnsOf(part, shape!.tokens, level, tile.i0, tile.rows);
          return { type: 'tile', layer, head, ...tile, ...(sinkColumns.length ? { sinkColumns } : {}) };
        }
        const ask = reader.tile.bind(reader);
        // A run's tiles are computed from its q and k: one at a time, none for a head left behind.
        if (reader.map) {
          const tile = await view.inTileTurn(layer, head, () => ask(layer, head, level, i0, j0, rows, cols, options));
          return tile && { type: 'tile', layer, head, ...tile };
        }
        return { type: 'tile', layer, head, ...await ask(layer, head, level, i0, j0, rows, cols, options) };
      });
    }
    case 'rollout': return view.answer(async (reader) => ({ type: 'rollout', rollout: await reader.rollout(options) }));
    case 'export': view.exportView(message); return;
    case 'painted': view.painted(message); return;
    case 'lens': view.lens(message); return;
    case 'logitLens': case 'step': view.analysis(message); return;
    case 'norms':
      // Only a model run has values to weigh; a file's editor leaves the message unheard.
      if (!view.runs) { view.log.warn('model editor: ignored a norms switch: this attention is a file\'s, not a model run\'s'); return; }
      view.scanWith({ ...options, norms: message.on });
      return;
    case 'ablate': view.ablate(message); return;
  }
}
