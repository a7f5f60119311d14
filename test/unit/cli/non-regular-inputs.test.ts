// Every file `attn` reads by name, given something that is not a regular file: a spec (validate,
// compute, analyze), attn run's --text-file, its model folder, the folder's config.json and
// tokenizer files, a tensor file a spec names, an attention file for inspect. The things: a FIFO
// with no writer (a blocking open would wait for one for ever), a folder, a socket, /dev/zero
// (endless), /dev/null, a huge sparse file, each direct or through a link. Each case must end at
// once with exit 1 and one line, no stack trace. The line names the path, except where a pipe is
// read as the shell's <(gen) is (a spec, a --text-file): with no writer it is an empty text, and
// says so. The cases are drawn from a seeded generator
// and run in one child with a time limit, so a read that blocked is killed and reported.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, ftruncateSync, mkdirSync, openSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { basename, join } from 'node:path';
import { runInChild } from '../../support/child.js';
import { ROOT } from '../../support/paths.js';
import { between, seeded } from '../../support/random.js';
import { tempDir } from '../../support/temp-dir.js';
import { writeTinyGpt2 } from '../../support/tiny-folder.js';

const KINDS = ['fifo', 'folder', 'socket', 'zero', 'null', 'huge'] as const;
type Kind = (typeof KINDS)[number];
const servers: Server[] = [];
after(() => { for (const s of servers) s.close(); });

async function make(kind: Kind, path: string, linked: boolean): Promise<void> {
  const target = linked ? `${path}.target` : path;
  switch (kind) {
    case 'fifo': execFileSync('mkfifo', [target]); break;
    case 'folder': mkdirSync(target); break;
    case 'socket': {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((done) => server.listen(target, done));
      break;
    }
    // A character device cannot be made without privileges: a link to one is what a user can make.
    case 'zero': symlinkSync('/dev/zero', target); break;
    case 'null': symlinkSync('/dev/null', target); break;
    case 'huge': { const fd = openSync(target, 'w'); ftruncateSync(fd, 8 * 1024 ** 3); closeSync(fd); break; }
  }
  if (linked) symlinkSync(target, path);
}

/** Where the thing goes in each command, and the command line that reads it. */
const PLACES = ['validate', 'compute', 'analyze', 'text-file', 'model-folder', 'config.json', 'tokenizer.json', 'vocab.json', 'tensor-file', 'inspect'] as const;
type Place = (typeof PLACES)[number];

function setUp(place: Place, dir: string, model: string): { path: string; argv: string[] } {
  mkdirSync(dir);
  const copyModel = () => {
    const m = join(dir, 'model');
    mkdirSync(m);
    for (const f of ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt']) copyFileSync(join(model, f), join(m, f));
    return m;
  };
  switch (place) {
    case 'validate': case 'compute': case 'analyze': {
      const path = join(dir, 'x.attn.json');
      return { path, argv: [place, path] };
    }
    case 'text-file': { const path = join(dir, 'text.txt'); return { path, argv: ['run', model, '--text-file', path] }; }
    case 'model-folder': { const path = join(dir, 'model'); return { path, argv: ['run', path, '--text', 'the cat'] }; }
    case 'config.json': case 'vocab.json': {
      const m = copyModel();
      rmSync(join(m, place));
      return { path: join(m, place), argv: ['run', m, '--text', 'the cat'] };
    }
    case 'tokenizer.json': { const m = copyModel(); return { path: join(m, place), argv: ['run', m, '--text', 'the cat'] }; }
    case 'tensor-file': {
      const spec = join(dir, 'w.attn.json');
      writeFileSync(spec, JSON.stringify({ features: ['a', 'b'], embeddings: { x: [1, 0] }, inputs: [{ tokens: ['x'] }], heads: [{ wq: { file: 'wq.npy' }, wk: [[1, 0], [0, 1]] }] }));
      return { path: join(dir, 'wq.npy'), argv: ['validate', spec] };
    }
    case 'inspect': { const path = join(dir, 'run.safetensors'); return { path, argv: ['inspect', path] }; }
  }
}

test('a FIFO, folder, socket, device or huge file wherever attn reads a file by name: exit 1 at once, one line naming it', async () => {
  const root = tempDir('attn-kinds-');
  const model = writeTinyGpt2(join(root, 'tiny'));
  const rand = seeded(20261128);
  const cases: { argv: string[]; path: string; what: string }[] = [];
  for (let i = 0; i < 48; i++) {
    const place = PLACES[i % PLACES.length];
    const kind = KINDS[between(rand, 0, KINDS.length - 1)];
    const linked = rand() < 0.35;
    const { path, argv } = setUp(place, join(root, `c${i}`), model);
    await make(kind, path, linked);
    cases.push({ argv, path, what: `${place} as ${linked ? 'a link to ' : ''}${kind}` });
  }
  const child = runInChild(`const { run } = require('./src/cli/run.ts');
    (async () => {
      for (const c of JSON.parse(process.argv[1])) {
        const out = [], err = [];
        let code;
        try { code = await run(c.argv, { out: (t) => out.push(t), err: (t) => err.push(t) }); } catch (e) { code = 'threw ' + (e && e.stack); }
        console.log(JSON.stringify({ code, out: out.join('\\n'), err: err.join('\\n') }));
      }
    })();`, JSON.stringify(cases), 120_000);
  const lines = child.stdout.trim().split('\n').filter((l) => l.length > 0);
  assert.equal(child.signal, null, `killed after ${lines.length} cases: ${cases[lines.length]?.what} blocked`);
  assert.equal(lines.length, cases.length, child.stderr);
  lines.forEach((line, i) => {
    const r = JSON.parse(line) as { code: number | string; out: string; err: string };
    const what = `${cases[i].what}: ${JSON.stringify(r)}`;
    assert.equal(r.code, 1, what);
    assert.equal(r.out, '', what);
    assert.equal(r.err.split('\n').length, 1, what);
    assert.doesNotMatch(r.err, /\n\s+at |internal error/, what);
    if (cases[i].what === 'text-file as fifo') assert.equal(r.err, 'the text has no tokens to run', what);
    else assert.ok(r.err.includes(basename(cases[i].path)), what);
  });
});

test('--out naming a FIFO, socket, folder or device (attn run, attn render): refused at once, one line, nothing replaced', async () => {
  const root = tempDir('attn-outs-');
  const model = writeTinyGpt2(join(root, 'tiny'));
  const spec = join(root, 'spec.attn.json');
  writeFileSync(spec, JSON.stringify({ features: ['a', 'b'], embeddings: { x: [1, 0], y: [0, 1] }, inputs: [{ tokens: ['x', 'y'] }], heads: [{ wq: [[1, 0], [0, 1]] }] }));
  const rand = seeded(20261136);
  const cases: { argv: string[]; path: string; what: string }[] = [];
  for (let i = 0; i < 16; i++) {
    const kind = (['fifo', 'folder', 'socket', 'zero', 'null'] as const)[between(rand, 0, 4)];
    const linked = rand() < 0.35;
    const path = join(root, `out-${i}.${i % 2 ? 'svg' : 'safetensors'}`);
    await make(kind, path, linked);
    const argv = i % 2 ? ['render', spec, '--view', 'matrix', '--out', path] : ['run', model, '--text', 'the cat', '--out', path];
    cases.push({ argv, path, what: `${argv[0]} --out ${linked ? 'a link to ' : ''}${kind}` });
  }
  const child = runInChild(`const { run } = require('./src/cli/run.ts');
    (async () => {
      for (const c of JSON.parse(process.argv[1])) {
        const out = [], err = [];
        let code;
        try { code = await run(c.argv, { out: (t) => out.push(t), err: (t) => err.push(t) }); } catch (e) { code = 'threw ' + (e && e.stack); }
        console.log(JSON.stringify({ code, err: err.join('\\n') }));
      }
    })();`, JSON.stringify(cases), 120_000);
  const lines = child.stdout.trim().split('\n').filter((l) => l.length > 0);
  assert.equal(child.signal, null, `killed after ${lines.length} cases: ${cases[lines.length]?.what} blocked`);
  assert.equal(lines.length, cases.length, child.stderr);
  lines.forEach((line, i) => {
    const r = JSON.parse(line) as { code: number | string; err: string };
    const what = `${cases[i].what}: ${JSON.stringify(r)}`;
    assert.ok(r.code === 1 || r.code === 2, what);
    assert.equal(r.err.split('\n').length, 1, what);
    assert.ok(r.err.includes(basename(cases[i].path)), what);
    assert.equal(statSync(cases[i].path).isFile(), false, `${what}: not replaced by a file`);
  });
});

/** `attn ARGS… <(writer)` under bash: the pipe is the last argument, as /dev/fd/N. */
function attnWithPipe(args: string[], writer: string) {
  const main = join(ROOT, 'src', 'cli', 'main.ts');
  return spawnSync('bash', ['-c', `exec "$0" --import tsx "$@" <(${writer})`, process.execPath, main, ...args], { cwd: ROOT, timeout: 60_000, encoding: 'utf8' });
}

test('the shell\'s <(gen) is read as a file: attn validate <(cat spec), attn run --text-file <(echo …)', () => {
  const root = tempDir('attn-subst-');
  const spec = join(root, 'spec.attn.json');
  writeFileSync(spec, JSON.stringify({ features: ['a', 'b'], embeddings: { x: [1, 0], y: [0, 1] }, inputs: [{ tokens: ['x', 'y'] }], heads: [{ wq: [[1, 0], [0, 1]] }] }));
  const validate = attnWithPipe(['validate'], `cat '${spec}'`);
  assert.equal(validate.status, 0, validate.stderr);
  assert.match(validate.stdout, /^\/dev\/fd\/\d+: ok\n$/);
  const broken = attnWithPipe(['validate'], `printf '{"features": [}'`);
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /^\/dev\/fd\/\d+:1:\d+: /);
  const model = writeTinyGpt2(join(root, 'tiny'));
  const piped = attnWithPipe(['run', model, '--json', '--text-file'], `printf 'the cat'`);
  assert.equal(piped.status, 0, piped.stderr);
  const named = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'run', model, '--json', '--text', 'the cat'], { cwd: ROOT, timeout: 60_000, encoding: 'utf8' });
  assert.equal(named.status, 0, named.stderr);
  const withoutTimings = (out: string) => ({ ...JSON.parse(out), timings: undefined });
  assert.deepEqual(withoutTimings(piped.stdout), withoutTimings(named.stdout));
});
