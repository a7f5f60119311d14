// The model webview's entry (custom editor for .safetensors / .npy / .npz, and the offline --html
// page): find the root and the tooltip, then talk to the VS Code host through its injected API, or,
// in the page, answer the app's requests from the data embedded in it: the CLI's ModelPageData, or
// the Python package's inline attention payload (decoded and answered in memory, as the notebook
// renderer does).
import { ModelApp, type ModelTransport } from './app.js';
import { float32FromBase64, joinPageLate, type ModelPageData, type ModelPageLate } from '../views/model/page-data.js';
import { fromBase64 } from '../../src/core/image/png.js';
import type { ModelWebviewMessage } from '../../src/protocol/model-editor.js';
import { MODEL_VIEW_NAMES, type ModelViewName } from '../../src/core/vocabulary.js';
import { STAT_NAMES, type StatName } from '../../src/core/tensors/head-stats.js';
import { mountPoint } from '../shell/mount.js';
import { readPayload } from '../../src/protocol/attention-payload.js';
import { MemoryModel, memoryPost } from '../../src/protocol/model-memory.js';
import { vscodeTransport, type VsCodeApi } from '../shell/transport.js';
import { keptThrough } from './kept-state.js';

/** The standalone page's performance mark at its first paint that shows heads. */
const PAINTED_MARK = 'attention-lens:painted';

declare function acquireVsCodeApi(): VsCodeApi<ModelWebviewMessage>;

function main(): void {
  const root = mountPoint(document, 'model-root', 'main', 'last');
  const tip = mountPoint(document, 'attention-tooltip', 'div', 'last');
  const payload = document.getElementById('attention-payload');
  if (payload) {
    startPayloadPage(root, tip, payload.textContent ?? '');
    return;
  }
  const embedded = document.getElementById('model-data');
  if (embedded) {
    startPage(root, tip, embedded.textContent ?? '');
    return;
  }
  const api = acquireVsCodeApi();
  const transport = vscodeTransport(api, window);
  // The view and head chosen survive the tab being hidden or moved (the page is made anew then).
  const { initial, keep } = keptThrough(api);
  const app = new ModelApp(root, tip, {
    ...transport,
    canSoftmax: true,
    save: (format, view, data) => transport.post({ type: 'export', format, view, data }),
    keep,
  }, initial);
  app.start();
}

/** The Python package's page: the payload checked and decoded here, the app's requests answered from it. */
function startPayloadPage(root: HTMLElement, tip: HTMLElement, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    root.textContent = 'The page\'s data is damaged.';
    return;
  }
  const read = readPayload(parsed);
  if ('problem' in read) {
    root.textContent = `Attention Lens cannot show this: ${read.problem}`;
    return;
  }
  const model = new MemoryModel(read.attention);
  const app: ModelApp = new ModelApp(root, tip, { canSoftmax: false, post: memoryPost(model, (reply) => app.receive(reply)) });
  app.start();
}

function startPage(root: HTMLElement, tip: HTMLElement, text: string): void {
  let data: Omit<ModelPageData, keyof ModelPageLate>;
  try {
    data = JSON.parse(text) as ModelPageData;
  } catch {
    root.textContent = 'The page\'s data is damaged.';
    return;
  }
  const i = data.initial ?? {};
  const initial = {
    ...(MODEL_VIEW_NAMES.includes(i.view as ModelViewName) ? { view: i.view as ModelViewName } : {}),
    ...(STAT_NAMES.includes(i.stat as StatName) ? { stat: i.stat as StatName } : {}),
    ...(Number.isInteger(i.layer) ? { layer: i.layer } : {}),
    ...(Number.isInteger(i.head) ? { head: i.head } : {}),
    ...(Number.isInteger(i.token) ? { token: i.token } : {}),
  };
  // Answers come asynchronously, as the host's would; the page's transport has nothing to listen to.
  let painted = false;
  const transport: ModelTransport = {
    canSoftmax: false,
    post(m: ModelWebviewMessage) {
      // The first paint that shows heads, marked for the benches (scripts/bench-page.ts reads the mark).
      // A flag, not performance.getEntriesByName: jsdom (the CLI's and the tests' page) has no such method,
      // and the throw there skipped the answer below.
      if (m.type === 'painted' && m.items > 0 && !painted) {
        painted = true;
        performance.mark?.(PAINTED_MARK);
      }
      queueMicrotask(() => answer(m));
    },
  };
  const app = new ModelApp(root, tip, transport, initial);
  let windowNoted = false;
  // The page's large part (heads, pictures, rollout) comes after this script: read once the parser has
  // reached the end of the page, when the app first asks for it.
  let late: ReturnType<typeof joinPageLate> | undefined;
  const lateData = (): ReturnType<typeof joinPageLate> | undefined => {
    if (late) return late;
    const parts: ModelPageLate[] = [];
    try {
      for (const element of document.querySelectorAll('script.model-late')) parts.push(JSON.parse(element.textContent ?? '') as ModelPageLate);
    } catch {
      app.note('the page\'s heads are damaged');
    }
    return (late = joinPageLate(parts));
  };
  function answer(m: ModelWebviewMessage): void {
    if (m.type === 'ready') {
      app.receive({ type: 'model', header: data.header, thumbnails: fromBase64(data.thumbnails) });
      return;
    }
    if (m.type !== 'head' && m.type !== 'window' && m.type !== 'rollout') return;
    // Asked before the parser has read the large part: asked again when it has.
    if (document.readyState === 'loading') { document.addEventListener('DOMContentLoaded', () => answer(m), { once: true }); return; }
    const more = lateData()!;
    if (m.type === 'head') {
      const weights = more.heads?.[`${m.layer}:${m.head}`];
      const picture = more.pictures?.[`${m.layer}:${m.head}`];
      if (weights) app.receive({ type: 'head', layer: m.layer, head: m.head, weights: float32FromBase64(weights) });
      else if (picture) app.receive({ type: 'head', layer: m.layer, head: m.head, picture: { res: picture.res, indices: fromBase64(picture.indices) }, max: picture.max });
      else app.note(`this page holds the weights of ${Object.keys(more.heads ?? {}).length} head(s) (${Object.keys(more.heads ?? {}).slice(0, 8).join(', ')}); render it with --layer and --head for another`);
    } else if (m.type === 'window' && !windowNoted) {
      // A head carried as a picture has no exact weights in the page to hover.
      windowNoted = true;
      app.note('this page holds the head as a picture (each pixel the strongest weight of its block), not its exact weights: open the file in the editor for them');
    } else if (m.type === 'rollout') {
      app.receive({ type: 'rollout', rollout: more.rollout ? float32FromBase64(more.rollout) : null });
    }
  }
  app.start();
}

main();
