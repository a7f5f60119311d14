// npm run bench:web: the web extension's size and first paint, beside the desktop's, in one session.
//
// 1. Size: each bundle of dist/web/ as `npm run package` ships it (minified, no source map), raw and
//    gzipped (what a browser fetches from vscode.dev's CDN), built here into a temp folder, beside
//    the desktop's bundles for the same jobs (extension, analysis, model run, model editor's scan).
// 2. First paint: code-server (VS Code's web build; nothing downloaded), this folder as the extension
//    under development, in headless Chromium. For each run, a fresh page on the example workspace,
//    alternately with the extension in the web worker extension host (`remote.extensionKind` web) and
//    in the Node extension host (the desktop's `main`, as code-server runs it): Quick Open the
//    apple-watch lens, Show Attention, and the time until the panel's picture (an <svg>) is drawn;
//    the bundles are built as the package ships them (node scripts/build.mjs --production).
//    Printed: the median, min and max of each over --runs (default 5) runs, alternated so that a
//    stray slow moment of the machine falls on both.
//
//   node --import tsx scripts/bench-web.ts [--runs 5] [--no-paint]
// Env: ATTN_SKIP_BUILD=1 reuses dist/ as it is for the paint.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { webBuildOptions, webRunWorkerBuildOptions, webScanWorkerBuildOptions, webWorkerBuildOptions } from './web-build.mjs';
import {
  launchChromium, makeExampleWorkspace, makeUserDataDir, removeTempDirs, ROOT, startCodeServer, workbenchUrl, type CodeServer,
} from './vscode/code-server.mjs';
import { attentionFrame, poll, quickOpen, runCommand, waitForState, waitForWorkbench } from '../test/e2e/workbench.js';
import { EXTENSION_ID, runningWhere } from '../test/e2e/web-host.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const RUNS = Math.max(1, Number(arg('--runs', '5')) || 5);
const SPEC = 'apple-watch-lens.attn.json';
type Host = 'web worker' | 'Node';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The bundles as `npm run package` builds them (minified, no map), in a temp folder: name → bytes. */
async function productionSizes(): Promise<{ name: string; bytes: number; gzip: number }[]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-bench-web-'));
  const prod = { minify: true, sourcemap: false, logLevel: 'error' as const };
  const node = { bundle: true, platform: 'node' as const, format: 'cjs' as const, target: 'node20', mainFields: ['module', 'main'], ...prod };
  const web = (name: string, options: (extra: object) => esbuild.BuildOptions): [string, esbuild.BuildOptions] =>
    [`dist/web/${name}`, options({ ...prod, outfile: path.join(out, `web-${name}`) })];
  const desktop = (name: string, entry: string, extra: esbuild.BuildOptions = {}): [string, esbuild.BuildOptions] =>
    [`desktop: dist/${name}`, { ...node, entryPoints: [entry], outfile: path.join(out, name), ...extra }];
  // Each web bundle, then the desktop's bundle that does the same job.
  const builds: [string, esbuild.BuildOptions][] = [
    web('extension.js', webBuildOptions),
    web('analysis-worker.js', webWorkerBuildOptions),
    web('run-worker.js', webRunWorkerBuildOptions),
    web('scan-worker.js', webScanWorkerBuildOptions),
    desktop('extension.js', 'src/host/extension.ts', { external: ['vscode'] }),
    desktop('analysis-worker.js', 'src/host/analysis/worker.ts'),
    desktop('run-worker.js', 'src/host/checkpoint-run/worker.ts'),
    desktop('scan-worker.js', 'src/host/model-editor/worker.ts'),
  ];
  try {
    const sizes = [];
    for (const [name, options] of builds) {
      await esbuild.build({ ...options, absWorkingDir: ROOT });
      const bytes = fs.readFileSync(options.outfile!);
      sizes.push({ name, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    }
    return sizes;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

function writeSettings(userDataDir: string, host: Host): void {
  const file = path.join(userDataDir, 'User', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete settings['remote.extensionKind'];
  if (host === 'web worker') settings['remote.extensionKind'] = { [EXTENSION_ID]: ['web'] };
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** One first paint: a fresh page in `host`, the spec opened, Show Attention, until the panel's <svg>. */
async function firstPaint(server: CodeServer, browser: Browser, workspace: string, host: Host): Promise<number> {
  writeSettings(server.userDataDir, host);
  const page: Page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
  try {
    await page.goto(workbenchUrl(server.base, { folder: workspace, extensionDevelopmentPath: ROOT }));
    await waitForWorkbench(page);
    const where = await runningWhere(page);
    if ((host === 'web worker') !== /web worker/.test(where)) throw new Error(`the extension runs elsewhere than the ${host} host: ${where}`);
    await quickOpen(page, SPEC);
    const t0 = Date.now();
    await runCommand(page, 'Show Attention');
    const frame = await attentionFrame(page, 60_000);
    await waitForState(frame, 'ready', 60_000);
    await poll('a drawn view (svg) in the panel', () => frame.$('#attention-root svg'), 30_000);
    return Date.now() - t0;
  } finally {
    await page.close();
  }
}

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  return `median ${median.toFixed(0)} ms (min ${sorted[0]}, max ${sorted[sorted.length - 1]}, ${ms.length} runs)`;
}

async function main(): Promise<void> {
  console.log('Bundle sizes, as npm run package builds them (minified, no source map):');
  for (const { name, bytes, gzip } of await productionSizes()) console.log(`  ${name.padEnd(34)} ${kb(bytes).padStart(10)}  gzip ${kb(gzip).padStart(9)}`);
  if (process.argv.includes('--no-paint')) return;
  if (!process.env.ATTN_SKIP_BUILD) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--production'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('node scripts/build.mjs --production failed');
  }
  const workspace = makeExampleWorkspace();
  const server = await startCodeServer({ userDataDir: makeUserDataDir() });
  const browser = await launchChromium();
  const paints: Record<Host, number[]> = { 'web worker': [], Node: [] };
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const host of (run % 2 ? ['Node', 'web worker'] : ['web worker', 'Node']) as Host[]) {
        paints[host].push(await firstPaint(server, browser, workspace, host));
      }
    }
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
  }
  console.log(`Show Attention -> the apple-watch lens panel's first paint (code-server, headless Chromium, ${os.cpus().length} cores):`);
  console.log(`  web worker extension host (package.json "browser"): ${summary(paints['web worker'])}`);
  console.log(`  Node extension host (package.json "main", the desktop's): ${summary(paints.Node)}`);
}

main().catch((e: unknown) => {
  console.error(`bench:web: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
