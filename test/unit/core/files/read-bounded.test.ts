// The shared reader of small named files (src/core/files/read-bounded.ts) over every kind of thing a
// path can name: a regular file within and over the budget, a FIFO (with and without a writer), a
// folder, a socket, a character device, a huge sparse file, and links to each. Opening a FIFO for
// reading waits for a writer for ever, so the reads run in a child with a time limit: a reader
// that opened one would be killed, and the test says so.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { runInChild } from '../../../support/child.js';
import { between, seeded } from '../../../support/random.js';
import { tempDir } from '../../../support/temp-dir.js';

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
    case 'fifo': execFileSync('mkfifo', [path]); return 'not-regular:a pipe (FIFO)';
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

test('every kind of path, direct or through a link: a regular file is read within the budget, everything else refused at once', async () => {
  const dir = tempDir('attn-bounded-');
  const rand = seeded(20261127);
  const cases: { path: string; budget: number; expected: string }[] = [];
  for (let i = 0; i < 40; i++) {
    const kind = KINDS[i < KINDS.length ? i : between(rand, 0, KINDS.length - 1)];
    const budget = between(rand, 1, 5000);
    const target = join(dir, `${i}-${kind}`);
    const expected = await make(kind, target, budget);
    let path = target;
    if (rand() < 0.4) {
      path = join(dir, `${i}-link`);
      symlinkSync(target, path);
    }
    cases.push({ path, budget, expected });
  }
  const child = runInChild(`const { readBounded } = require('./src/core/files/read-bounded.ts');
    for (const c of JSON.parse(process.argv[1])) {
      const r = readBounded(c.path, c.budget);
      console.log('bytes' in r ? 'bytes:' + r.bytes.length : r.refused === 'not-regular' ? 'not-regular:' + r.detail : r.refused);
    }`, JSON.stringify(cases), 60_000);
  assert.equal(child.signal, null, `the child was killed: a read blocked (it got through ${child.stdout.split('\n').length - 1} cases)`);
  assert.equal(child.stderr, '');
  assert.deepEqual(child.stdout.trim().split('\n'), cases.map((c) => c.expected));
});

test('a FIFO whose writer never stops is refused, not read (the writer is there, so an open would not block)', () => {
  const dir = tempDir('attn-bounded-');
  const fifo = join(dir, 'endless');
  execFileSync('mkfifo', [fifo]);
  const child = runInChild(`const { spawn } = require('node:child_process');
    const writer = spawn('sh', ['-c', 'yes > "$0"', process.argv[1]], { stdio: 'ignore' });
    const { readBounded } = require('./src/core/files/read-bounded.ts');
    console.log(JSON.stringify(readBounded(process.argv[1], 1000)));
    writer.kill();`, fifo);
  assert.equal(child.signal, null);
  assert.deepEqual(JSON.parse(child.stdout), { refused: 'not-regular', detail: 'a pipe (FIFO)' });
});
