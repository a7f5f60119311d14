// The webview's entry: find (or make) the root and the tooltip, take the VS Code API (or, outside
// VS Code, a stand-in that posts to the parent window) and start the panel shell with it.
import { App, type VsCodeApi } from './app.js';
import { mountPoint } from '../shell/mount.js';
import { framedApi } from '../shell/transport.js';

declare function acquireVsCodeApi(): VsCodeApi;

function main(): void {
  const root = mountPoint(document, 'attention-root', 'main', 'first');
  const tip = mountPoint(document, 'attention-tooltip', 'div', 'last');
  const api: VsCodeApi = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : framedApi(window);
  const app = new App(root, tip, api);
  app.start();
}

main();
