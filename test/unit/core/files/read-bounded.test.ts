// The shared reader of small named files (src/core/files/read-bounded.ts) over every kind of thing a
// path can name: a regular file within and over the budget, a FIFO (with and without a writer, a
// live one and an idle one), a folder, a socket, a character device, a huge sparse file, and links
// to each. A FIFO is read only for a caller that asks for pipes; a blocking open or read of one
// could wait for ever, so the reads run in a child with a time limit: a reader that blocked would be
// killed, and the test says so.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { runInChild } from '../../../support/child.js';
import { between, seeded } from '../../../support/random.js';
import { tempDir } from '../../../support/temp-dir.js';
import { ROOT } from '../../../support/paths.js';
import { IDLE_PIPE } from '../../../../src/core/files/read-bounded.js';

const KINDS = ['small', 'exact', 'over', 'huge', 'fifo', 'folder', 'socket', 'zero', 'null', 'missing'] as const;
type Kind = (typeof KINDS)[number];
const servers: Server[] = [];
after(() => { for (const s of servers) s.close(); });

/** Makes a thing of `kind` at `path` (a link to it when `linked`); what the reader must answer. */
async function make(kind: Kind, path: string, budget: number): Promise<string> {
  switch (kind) {
    case 'small': writeFileSync(path, 'x'.repeat(budget - 1)); return `bytes:${budget - 1}`;
    case 'exact': writeFileSync(path, 'y'.repeat(budget)); return `bytes:${budget}`;
    case 'over': writeFileSync(path, 'z'.repeat(budget + 1)); return 'too-large';
    case 'huge': { const fd = openSync(path, 'w'); ftruncateSync(fd, 8 * 1024 ** 3); closeSync(fd); return 'too-large'; }
    // No writer: a non-blocking open does not wait, and the pipe reads as empty.
    case 'fifo': execFileSync('mkfifo', [path]); return 'fifo';
    case 'folder': mkdirSync(path); return 'not-regular:a directory';
    case 'socket': {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((done) => server.listen(path, done));
      return 'not-regular:a socket';
    }
    case 'zero': symlinkSync('/dev/zero', path); return 'not-regular:a character device';
    case 'null': symlinkSync('/dev/null', path); return 'not-regular:a character device';
    case 'missing': return 'missing';
  }
}

test('every kind of path, direct or through a link: a regular file (and a FIFO when asked) is read within the budget, everything else refused at once', async () => {
  const dir = tempDir('attn-bounded-');
  const rand = seeded(20261127);
  const cases: { path: string; budget: number; pipes: boolean; expected: string }[] = [];
  for (let i = 0; i < 40; i++) {
    const kind = KINDS[i < KINDS.length ? i : between(rand, 0, KINDS.length - 1)];
    const budget = between(rand, 1, 5000);
    const target = join(dir, `${i}-${kind}`);
    const made = await make(kind, target, budget);
    const pipes = rand() < 0.5;
    const expected = made !== 'fifo' ? made : pipes ? 'bytes:0' : 'not-regular:a pipe (FIFO)';
    let path = target;
    if (rand() < 0.4) {
      path = join(dir, `${i}-link`);
      symlinkSync(target, path);
    }
    cases.push({ path, budget, pipes, expected });
  }
  const child = runInChild(`const { readBounded } = require('./src/core/files/read-bounded.ts');
    for (const c of JSON.parse(process.argv[1])) {
      const r = readBounded(c.path, c.budget, { pipes: c.pipes });
      console.log('bytes' in r ? 'bytes:' + r.bytes.length : r.refused === 'not-regular' ? 'not-regular:' + r.detail : r.refused);
    }`, JSON.stringify(cases), 60_000);
  assert.equal(child.signal, null, `the child was killed: a read blocked (it got through ${child.stdout.split('\n').length - 1} cases)`);
  assert.equal(child.stderr, '');
  assert.deepEqual(child.stdout.trim().split('\n'), cases.map((c) => c.expected));
});

test('a FIFO whose writer never stops: refused unasked, read to the budget and no further when pipes are asked for', () => {
  const dir = tempDir('attn-bounded-');
  const fifo = join(dir, 'endless');
  execFileSync('mkfifo', [fifo]);
  const unasked = runInChild(`const { spawn } = require('node:child_process');
    const writer = spawn('sh', ['-c', 'yes > "$0"', process.argv[1]], { stdio: 'ignore' });
    const { readBounded } = require('./src/core/files/read-bounded.ts');
    console.log(JSON.stringify(readBounded(process.argv[1], 1000)));
    writer.kill();`, fifo);
  assert.equal(unasked.signal, null);
  assert.deepEqual(JSON.parse(unasked.stdout), { refused: 'not-regular', detail: 'a pipe (FIFO)' });
  // <(yes): the shell makes the pipe before the writer starts, so the writer is there from the first read.
  const asked = underBash(`const { readBounded } = require('./src/core/files/read-bounded.ts');
    console.log(JSON.stringify(readBounded(process.argv[1], 1000, { pipes: true })));`, 'yes');
  assert.equal(asked.signal, null, 'the read blocked');
  assert.deepEqual(JSON.parse(asked.stdout), { refused: 'too-large', detail: '1000' });
});

/** Runs `node -e script FILE` under bash with FILE a process substitution, <(writer): a /dev/fd/N pipe. */
function underBash(script: string, writer: string, timeoutMs = 30_000) {
  return spawnSync('bash', ['-c', `exec "$0" --import tsx -e "$1" <(${writer})`, process.execPath, script], { cwd: ROOT, timeout: timeoutMs, encoding: 'utf8' });
}

test('the shell\'s <(gen) (a /dev/fd/N pipe): every byte a live writer sends, pauses included, up to its end', () => {
  const script = `const { readBounded } = require('./src/core/files/read-bounded.ts');
    const r = readBounded(process.argv[1], 100000, { pipes: true });
    console.log(JSON.stringify('bytes' in r ? { text: r.bytes.toString('utf8') } : r));`;
  const rand = seeded(20261201);
  for (let i = 0; i < 4; i++) {
    // Pieces of different sizes, the writer pausing between some of them (it, not the test, waits).
    const pieces = Array.from({ length: between(rand, 1, 5) }, (_, k) => `${k}:${'ab'.repeat(between(rand, 0, 20000))};`);
    const writer = pieces.map((p, k) => `printf '%s' '${p}'${k % 2 ? '; sleep 0.2' : ''}`).join('; ');
    const child = underBash(script, writer);
    assert.equal(child.signal, null, 'the read blocked');
    assert.equal(child.stderr, '');
    assert.deepEqual(JSON.parse(child.stdout), { text: pieces.join('') }, writer.slice(0, 80));
  }
});

test('a pipe whose writer holds it open and never writes is given up after the idle time, not waited on for ever', () => {
  const dir = tempDir('attn-bounded-');
  const fifo = join(dir, 'idle');
  execFileSync('mkfifo', [fifo]);
  // This process is the idle writer: O_RDWR opens a FIFO at once on Linux and holds its write end.
  const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  try {
    const child = runInChild(`const { readBounded } = require('./src/core/files/read-bounded.ts');
      const started = Date.now();
      const r = readBounded(process.argv[1], 1000, { pipes: true, idleMs: 300 });
      console.log(JSON.stringify({ r, ms: Date.now() - started }));`, fifo, 20_000);
    assert.equal(child.signal, null, 'the read blocked');
    const { r, ms } = JSON.parse(child.stdout) as { r: unknown; ms: number };
    assert.deepEqual(r, { refused: 'unreadable', detail: IDLE_PIPE });
    assert.ok(ms >= 300 && ms < 5000, `gave up after ${ms} ms`);
  } finally {
    closeSync(writer);
  }
});
