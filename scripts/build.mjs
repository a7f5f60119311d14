// Builds the bundles with esbuild: the extension host (CommonJS, vscode external), its analysis worker,
// the webview (browser IIFE with d3 inside: nothing comes from a CDN), and the attn CLI.
// Types are checked separately by `tsc --noEmit`, since esbuild does not check them.
import { webRunWorkerBuildOptions } from './web-build.mjs';
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { webBuildOptions, webScanWorkerBuildOptions, webWorkerBuildOptions, writeExamplesIndex } from './web-build.mjs';

const production = process.argv.includes('--production');
const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'warning' };
// jsonc-parser's "main" is a UMD build whose inner requires esbuild cannot follow; its ESM build bundles cleanly.
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'] };

await Promise.all([
  esbuild.build({
    ...node, entryPoints: ['src/host/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'],
  }),
  // The model editor's reader runs in a worker thread of the extension host.
  esbuild.build({
    ...node, entryPoints: ['src/host/model-editor/worker.ts'], outfile: 'dist/scan-worker.js',
  }),
  // The model run's worker: a real checkpoint's forward pass, and the model views' reads of its attention.
  esbuild.build({
    ...node, entryPoints: ['src/host/checkpoint-run/worker.ts'], outfile: 'dist/run-worker.js',
  }),
  // The analysis worker (worker_threads): reads and computes specs off the extension host's thread.
  esbuild.build({
    ...node, entryPoints: ['src/host/analysis/worker.ts'], outfile: 'dist/analysis-worker.js',
  }),
  // The second thread of a big compute (core/threads/heads-thread.ts), beside the bundles that start it.
  esbuild.build({
    ...node, entryPoints: ['src/core/threads/heads-worker.ts'], outfile: 'dist/heads-worker.js',
  }),
  // The helper threads of the float32 products (core/threads/kernel-thread.ts), one per other core.
  esbuild.build({
    ...node, entryPoints: ['src/core/threads/kernel-worker.ts'], outfile: 'dist/kernel-worker.js',
  }),
  esbuild.build({
    ...node, entryPoints: ['src/cli/main.ts'], outfile: 'dist/attn.js', external: ['jsdom'],
  }),
  // The web extension's model run worker (a Web Worker: src/host/web/model-run/run-lanes.ts).
  esbuild.build(webRunWorkerBuildOptions({ minify: production, sourcemap: !production })),
  // The web extension (package.json "browser"): the web worker extension host, no Node (scripts/web-build.mjs).
  esbuild.build(webBuildOptions({ minify: production, sourcemap: !production })),
  esbuild.build(webWorkerBuildOptions({ minify: production, sourcemap: !production })),
  esbuild.build(webScanWorkerBuildOptions({ minify: production, sourcemap: !production })),
  esbuild.build({
    ...common, entryPoints: ['webview/panel/main.ts'], outfile: 'dist/webview.js',
    platform: 'browser', format: 'iife', target: 'es2022',
  }),
  // The model editor's webview (.safetensors / .npy / .npz) and the --html page: its own bundle.
  esbuild.build({
    ...common, entryPoints: ['webview/model-editor/main.ts'], outfile: 'dist/model-webview.js',
    platform: 'browser', format: 'iife', target: 'es2022',
  }),
  // The notebook renderer (contributes.notebookRenderer): an ES module VS Code loads in the notebook's webview.
  esbuild.build({
    ...common, entryPoints: ['webview/notebook/main.ts'], outfile: 'dist/notebook-renderer.js',
    platform: 'browser', format: 'esm', target: 'es2022',
  }),
]);

// The examples' list, for Open Example where the extension's folder cannot be listed (the web).
writeExamplesIndex();

// The Python package's offline page (python/attention_lens/assets/model-page.html, committed): the
// model webview's bundle inlined with slots for the package to fill (scripts/python-page.ts).
const page = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/python-page.ts'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (page.status !== 0) process.exit(page.status ?? 1);
