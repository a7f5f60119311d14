// The web extension's bundle (package.json "browser"): VS Code for the Web (vscode.dev, github.dev,
// code-server in a browser) loads it in its web worker extension host, as CommonJS with `vscode`
// external. No Node there: the guard below fails the build, naming the importer, when a Node
// built-in (node:fs, path, worker_threads, …) is imported, even one a package in node_modules could
// otherwise stand in for. scripts/build.mjs builds it; a unit test builds it again with a metafile.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { builtinModules } from 'node:module';

export const WEB_ENTRY = 'src/host/web/extension.ts';
export const WEB_OUTFILE = 'dist/web/extension.js';
/** The analysis worker the web extension starts as a Web Worker (src/host/web/analysis-lanes.ts). */
export const WEB_WORKER_ENTRY = 'src/host/web/analysis-worker.ts';
export const WEB_WORKER_OUTFILE = 'dist/web/analysis-worker.js';
/** The model editor's reader the web extension starts as a Web Worker (src/host/web/model-editor/web-files.ts). */
export const WEB_SCAN_WORKER_ENTRY = 'src/host/web/model-editor/scan-worker.ts';
export const WEB_SCAN_WORKER_OUTFILE = 'dist/web/scan-worker.js';

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Whether an import path names a Node built-in module (fs, node:fs, fs/promises, …). */
export function isNodeBuiltin(path) {
  return BUILTINS.has(path) || path.startsWith('node:');
}

/** Fails any import of a Node built-in, with the file that imports it. */
export const noNodeBuiltins = {
  name: 'no-node-builtins',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (!isNodeBuiltin(args.path)) return undefined;
      return { errors: [{ text: `the web extension cannot import the Node module "${args.path}" (imported by ${args.importer}): the web worker extension host has no Node` }] };
    });
  },
};

/** esbuild's options for the web bundle; `extra` overrides (a test asks for a metafile and no write). */
export function webBuildOptions(extra = {}) {
  return {
    entryPoints: [WEB_ENTRY],
    outfile: WEB_OUTFILE,
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    // jsonc-parser's "main" is a UMD build whose inner requires esbuild cannot follow; its ESM build bundles cleanly.
    mainFields: ['browser', 'module', 'main'],
    plugins: [noNodeBuiltins],
    logLevel: 'warning',
    ...extra,
  };
}

/** esbuild's options for the web analysis worker: a classic worker script (an IIFE), no Node either. */
export function webWorkerBuildOptions(extra = {}) {
  return webBuildOptions({ entryPoints: [WEB_WORKER_ENTRY], outfile: WEB_WORKER_OUTFILE, format: 'iife', external: [], ...extra });
}

/** esbuild's options for the model editor's web reader: a classic worker script too, no Node. */
export function webScanWorkerBuildOptions(extra = {}) {
  return webWorkerBuildOptions({ entryPoints: [WEB_SCAN_WORKER_ENTRY], outfile: WEB_SCAN_WORKER_OUTFILE, ...extra });
}

/** Where Open Example finds the examples' list when the extension's folder cannot be listed (its index). */
export const EXAMPLES_INDEX = 'dist/examples.json';

/**
 * Writes the list of the files Open Example copies (examples/*.attn.json and examples/models/**), as
 * paths below examples/: VS Code for the Web reads an extension's files over HTTP, which lists no folder.
 */
export function writeExamplesIndex(root = '.') {
  const examples = path.join(root, 'examples');
  const files = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(examples, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && (rel || e.name === 'models')) walk(p);
      else if (e.isFile() && (rel.startsWith('models') || e.name.endsWith('.attn.json'))) files.push(p);
    }
  };
  walk('');
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, EXAMPLES_INDEX), `${JSON.stringify({ files: files.sort() }, null, 1)}\n`);
}

/** The model run the web extension starts as a Web Worker (src/host/web/model-run/run-lanes.ts). */
export const WEB_RUN_WORKER_ENTRY = 'src/host/web/model-run/run-worker.ts';
export const WEB_RUN_WORKER_OUTFILE = 'dist/web/run-worker.js';

/** esbuild's options for the web model run worker: a classic worker script, no Node, no kernel threads. */
export function webRunWorkerBuildOptions(extra = {}) {
  return webWorkerBuildOptions({ entryPoints: [WEB_RUN_WORKER_ENTRY], outfile: WEB_RUN_WORKER_OUTFILE, ...extra });
}
