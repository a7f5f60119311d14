// One notebook output drawn by Attention Lens: the payload checked and decoded (never trusted: a bad
// one is a one-line message in the cell, never a blank or a throw), then the model editor's app (its
// toolbar and the model views: grid, head, head-tokens, finder, rollout) on the shell base, answered
// from the payload in memory; it follows the theme (VS Code's body classes and CSS variables in the
// notebook's webview) and the cell's width (a ResizeObserver on the output's element). Above it,
// "Open in Attention Lens" asks the host to open the full model editor on the cell's data.
import { ModelApp } from '../model-editor/app.js';
import { readPayload } from '../../src/protocol/attention-payload.js';
import { MemoryModel, memoryPost } from '../../src/protocol/model-memory.js';
import type { AttentionPayload } from '../../src/core/model-attention/payload.js';
import type { RendererMessage, RendererReply } from '../../src/protocol/notebook.js';
import { addStyle } from './style.js';

export interface CellHost {
  /** Asks the extension to open the payload in the model editor; absent where the renderer cannot reach it. */
  open?: (payload: AttentionPayload) => Promise<RendererReply>;
  /** Reports a painting to the extension (tests and timings). */
  painted?: (report: Extract<RendererMessage, { type: 'painted' }>) => void;
}

export interface RenderedCell {
  /** The app, when the payload could be drawn. */
  readonly app?: ModelApp;
  /** The problem, when it could not. */
  readonly problem?: string;
  dispose(): void;
}

/** The sentence a cell shows for a payload it cannot draw. */
export const cannotShow = (problem: string) => `Attention Lens cannot show this output: ${problem}`;

/** Draws `value` (the output's JSON, or why it could not be read) into `element`, replacing what was there. */
export function renderAttentionOutput(element: HTMLElement, value: unknown, host: CellHost, readError?: string): RenderedCell {
  const doc = element.ownerDocument;
  addStyle(doc);
  const box = doc.createElement('div');
  box.className = 'al-notebook';
  element.replaceChildren(box);
  const read = readError !== undefined ? { problem: `its JSON cannot be read (${readError})` } : readPayload(value);
  if ('problem' in read) {
    const line = doc.createElement('p');
    line.className = 'al-notebook-error';
    line.setAttribute('role', 'alert');
    line.textContent = cannotShow(read.problem);
    box.append(line);
    box.dataset.state = 'error';
    host.painted?.({ type: 'painted', view: 'error', items: 0, drawMs: 0 });
    return { problem: read.problem, dispose: () => {} };
  }
  const bar = doc.createElement('div');
  bar.className = 'al-notebook-bar';
  const status = doc.createElement('span');
  status.className = 'al-notebook-status';
  status.setAttribute('role', 'status');
  if (host.open) {
    const open = host.open;
    const button = doc.createElement('button');
    button.className = 'al-notebook-open';
    button.textContent = 'Open in Attention Lens';
    button.title = 'Open these weights in the Attention Lens model editor';
    button.addEventListener('click', () => {
      button.disabled = true;
      status.textContent = 'Opening…';
      open(read.payload).then(
        (reply) => { status.textContent = reply.type === 'opened' ? 'Opened in Attention Lens, beside the notebook' : `Not opened: ${reply.message}`; },
        (e: unknown) => { status.textContent = `Not opened: ${e instanceof Error ? e.message : String(e)}`; },
      ).finally(() => { button.disabled = false; });
    });
    bar.append(button);
  }
  bar.append(status);
  const root = doc.createElement('div');
  root.className = 'al-notebook-root';
  const tip = doc.createElement('div');
  tip.className = 'al-notebook-tip';
  tip.setAttribute('role', 'tooltip');
  tip.hidden = true;
  box.append(bar, root, tip);
  const model = new MemoryModel(read.attention);
  const app: ModelApp = new ModelApp(root, tip, {
    canSoftmax: false,
    post: memoryPost(model, (reply) => app.receive(reply), (m) => { if (m.type === 'painted') host.painted?.(m); }),
  }, {}, { focusOnArrival: false });
  app.start();
  return { app, dispose: () => { app.dispose(); box.remove(); } };
}
