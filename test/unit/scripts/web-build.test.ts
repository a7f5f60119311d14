// The web extension's bundle (scripts/web-build.mjs) holds no Node: the web worker extension host
// has no fs, path, worker_threads, child_process, os, crypto, zlib or process. Its metafile is read
// with the guard off and every Node built-in left external, so one that enters shows as an import
// here whoever brings it; the free globals Node alone has (Buffer, process, __dirname) are caught by
// defining each to a marker that must not appear in the output. And the guard itself fails a build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import * as esbuild from 'esbuild';
import { isNodeBuiltin, noNodeBuiltins, webBuildOptions, webScanWorkerBuildOptions, webWorkerBuildOptions } from '../../../scripts/web-build.mjs';

const NODE_ONLY = ['fs', 'path', 'worker_threads', 'child_process', 'os', 'crypto', 'zlib', 'process', 'perf_hooks', 'v8', 'vm'];
const NODE_GLOBALS = ['Buffer', 'process', '__dirname', '__filename', 'global'];
const marker = (name: string) => `__node_global_${name}__`;

type Bundle = 'extension' | 'analysis' | 'scan';
const OPTIONS = { extension: webBuildOptions, analysis: webWorkerBuildOptions, scan: webScanWorkerBuildOptions } as const;

/** One of the web bundles (the extension's, its analysis worker's, its model reader's), with Node left visible. */
async function webBundle(bundle: Bundle) {
  const everyBuiltin = builtinModules.flatMap((m) => [m, `node:${m}`]);
  return esbuild.build(OPTIONS[bundle]({
    write: false, metafile: true, minify: false, sourcemap: false, logLevel: 'silent', plugins: [],
    external: ['vscode', ...everyBuiltin],
    define: Object.fromEntries(NODE_GLOBALS.map((g) => [g, marker(g)])),
  }));
}

/** The external imports of a bundle's metafile, with the file importing each. */
function externalImports(metafile: esbuild.Metafile): { file: string; path: string }[] {
  return Object.entries(metafile.inputs).flatMap(([file, input]) =>
    input.imports.filter((i) => i.external).map((i) => ({ file, path: i.path })));
}

const BUNDLES = [
  ['web extension', 'extension', ['vscode'], ['src/host/analysis/analyst.ts', 'src/host/model-editor/editor.ts', 'src/host/web/model-editor/web-files.ts', 'src/host/web/model-editor/npz-members.ts']],
  ['web analysis worker', 'analysis', [], ['src/host/analysis/analyst.ts']],
  ['web model reader', 'scan', [], ['src/host/model-editor/file-answers.ts', 'src/core/files/attention-bytes.ts', 'src/core/files/zip.ts']],
] as const;

for (const [name, bundle, externals, sources] of BUNDLES) {
  test(`the ${name}'s bundle imports no Node module, whatever file would bring one`, async () => {
    const { metafile } = await webBundle(bundle);
    assert.ok(metafile);
    const imports = externalImports(metafile);
    const node = imports.filter((i) => isNodeBuiltin(i.path));
    assert.deepEqual(node, [], `Node modules in the ${name}'s bundle: ${node.map((i) => `${i.path} (from ${i.file})`).join(', ')}`);
    assert.deepEqual([...new Set(imports.map((i) => i.path))], externals);
    for (const source of sources) assert.ok(Object.keys(metafile.inputs).some((f) => f.endsWith(source)), `${source} is in the bundle`);
  });

  test(`the ${name}'s bundle uses none of the globals only Node has (Buffer, process, __dirname)`, async () => {
    const text = (await webBundle(bundle)).outputFiles!.find((f) => f.path.endsWith('.js'))!.text;
    const used = NODE_GLOBALS.filter((g) => text.includes(marker(g)));
    assert.deepEqual(used, [], `Node globals in the ${name}'s bundle: ${used.join(', ')}`);
  });
}

test('the Node-only modules are all known as Node\'s, with and without "node:"', () => {
  for (const m of NODE_ONLY) assert.ok(isNodeBuiltin(m) && isNodeBuiltin(`node:${m}`), m);
  for (const m of ['vscode', 'd3', 'jsonc-parser', './path.js']) assert.equal(isNodeBuiltin(m), false, m);
});

test('the guard fails a web build that imports a Node module, naming the module and its importer', async () => {
  for (const spelling of ['node:fs', 'path', 'worker_threads', 'fs/promises']) {
    await assert.rejects(
      esbuild.build({
        stdin: { contents: `import * as m from '${spelling}'; console.log(m);`, sourcefile: 'uses-node.ts', loader: 'ts' },
        bundle: true, write: false, platform: 'browser', format: 'cjs', logLevel: 'silent', plugins: [noNodeBuiltins],
      }),
      (e: { errors?: { text: string }[] }) => e.errors?.some((x) => x.text.includes(`"${spelling}"`) && x.text.includes('uses-node.ts')) ?? false,
      spelling,
    );
  }
});
