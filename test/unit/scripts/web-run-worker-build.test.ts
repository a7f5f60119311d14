// The web model run worker's bundle (scripts/web-build.mjs: dist/web/run-worker.js) holds no Node,
// as the web extension's does (web-build.test.ts): no Node module whoever would bring one (its kernels
// run on the worker's own thread, no worker_threads), none of Node's free globals, and the engine and
// the model folder's reader are in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import * as esbuild from 'esbuild';
import { isNodeBuiltin, webRunWorkerBuildOptions, WEB_RUN_WORKER_OUTFILE } from '../../../scripts/web-build.mjs';

const NODE_GLOBALS = ['Buffer', 'process', '__dirname', '__filename', 'global'];
const marker = (name: string) => `__node_global_${name}__`;

async function runWorkerBundle() {
  return esbuild.build(webRunWorkerBuildOptions({
    write: false, metafile: true, minify: false, sourcemap: false, logLevel: 'silent', plugins: [],
    external: builtinModules.flatMap((m) => [m, `node:${m}`]),
    define: Object.fromEntries(NODE_GLOBALS.map((g) => [g, marker(g)])),
  }));
}

test('the web run worker\'s bundle imports nothing (no Node module), and holds the engine and the folder reader', async () => {
  assert.equal(WEB_RUN_WORKER_OUTFILE, 'dist/web/run-worker.js');
  const { metafile, outputFiles } = await runWorkerBundle();
  assert.ok(metafile);
  const external = Object.entries(metafile.inputs).flatMap(([file, input]) => input.imports.filter((i) => i.external).map((i) => `${i.path} (from ${file})`));
  assert.deepEqual(external.filter((i) => isNodeBuiltin(i.split(' ')[0])), [], 'no Node module');
  assert.deepEqual(external, [], 'nothing left outside the bundle');
  for (const source of ['src/host/checkpoint-run/model-engine.ts', 'src/core/checkpoint-files/model-folder-read.ts', 'src/host/checkpoint-run/run-answers.ts']) {
    assert.ok(Object.keys(metafile.inputs).some((f) => f.endsWith(source)), `${source} is in the bundle`);
  }
  assert.ok(!Object.keys(metafile.inputs).some((f) => /threads\/kernel-(thread|worker)\.ts$/.test(f)), 'no kernel threads');
  const text = outputFiles!.find((f) => f.path.endsWith('.js'))!.text;
  assert.deepEqual(NODE_GLOBALS.filter((g) => text.includes(marker(g))), [], 'no Node globals');
});
