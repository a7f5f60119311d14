// The webview's entry: find (or make) the root and the tooltip, start the panel shell.
import { App, type VsCodeApi } from './app.js';

declare function acquireVsCodeApi(): VsCodeApi;

function api(): VsCodeApi {
  if (typeof acquireVsCodeApi === 'function') return acquireVsCodeApi();
  // Outside VS Code (a test page): messages go to the parent window, state lives in memory.
  let state: unknown;
  return {
    postMessage: (m) => window.parent?.postMessage(m, '*'),
    getState: () => state,
    setState: (s) => { state = s; },
  };
}

function main(): void {
  let root = document.getElementById('attention-root');
  if (!root) {
    root = document.createElement('main');
    root.id = 'attention-root';
    document.body.prepend(root);
  }
  let tip = document.getElementById('attention-tooltip');
  if (!tip) {
    tip = document.createElement('div');
    tip.id = 'attention-tooltip';
    document.body.append(tip);
  }
  const app = new App(root, tip, api());
  app.start();
}

main();
