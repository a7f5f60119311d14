// Reading a spec with a byte budget, whatever the path names: endless devices, pipes, bad encodings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { readSpecText, firstInvalidUtf8 } from '../../../src/cli/read-file.js';
import { ROOT } from '../../support/paths.js';
import { tempDir } from '../../support/temp-dir.js';

const dir = tempDir('attn-read-');

test('/dev/zero is refused after max-bytes + 1 bytes, not read until memory runs out', () => {
  const r = readSpecText('/dev/zero', 1000);
  assert.deepEqual(r, { error: '1:1: the spec is over the 1000 bytes limit: a spec is for small, readable examples; big tensors belong in a binary file' });
});

test('a FIFO that never ends is refused at the budget', async () => {
  const fifo = join(dir, 'endless.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  // A writer that would go on for ever: `yes` into the FIFO.
  const writer = spawn('sh', ['-c', `yes '{"a":1}' > '${fifo}'`], { stdio: 'ignore' });
  try {
    const r = readSpecText(fifo, 64 * 1024);
    assert.ok('error' in r && /over the 64\.0 KB limit/.test(r.error), JSON.stringify(r));
  } finally {
    writer.kill();
  }
});

test('stdin through /dev/stdin is read within the budget (a real process, piped)', () => {
  const script = `const { readSpecText } = require(${JSON.stringify(join(ROOT, 'src', 'cli', 'read-file.ts'))});
    process.stdout.write(JSON.stringify(readSpecText('/dev/stdin', 10)));`;
  const small = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { input: '{"x":1}', encoding: 'utf8' });
  assert.deepEqual(JSON.parse(small.stdout), { text: '{"x":1}' });
  const big = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { input: 'x'.repeat(100_000), encoding: 'utf8' });
  assert.match(JSON.parse(big.stdout).error, /over the 10 bytes limit/);
});

test('invalid UTF-8 is an error at its line and column, not silently replaced', () => {
  const file = join(dir, 'latin1.attn.json');
  writeFileSync(file, Buffer.concat([Buffer.from('{\n  "title": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}')]));
  assert.deepEqual(readSpecText(file, 1000), { error: '2:16: the file is not valid UTF-8 (byte 0xe9 at offset 17); save it as UTF-8' });
});

test('UTF-16 gets a hint, with or without a byte-order mark', () => {
  for (const bom of [true, false]) {
    const file = join(dir, `utf16-${bom}.attn.json`);
    const body = Buffer.from('{"inputs": []}', 'utf16le');
    writeFileSync(file, bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body);
    assert.deepEqual(readSpecText(file, 1000), { error: '1:1: the file is UTF-16; save it as UTF-8 (JSON files are UTF-8)' });
  }
});

test('valid UTF-8 of every length passes; overlong forms and surrogates do not', () => {
  assert.equal(firstInvalidUtf8(Buffer.from('a é € 😀', 'utf8')), -1);
  assert.equal(firstInvalidUtf8(Uint8Array.from([0x61, 0xc0, 0x80])), 1); // overlong NUL
  assert.equal(firstInvalidUtf8(Uint8Array.from([0xed, 0xa0, 0x80])), 0); // a surrogate half
  assert.equal(firstInvalidUtf8(Uint8Array.from([0xf4, 0x90, 0x80, 0x80])), 0); // past U+10FFFF
  assert.equal(firstInvalidUtf8(Uint8Array.from([0x61, 0xe2, 0x82])), 1); // cut short
});

test('a directory and a missing file say so in words', () => {
  assert.deepEqual(readSpecText(dir, 1000), { error: 'is a directory, expected a .attn.json file' });
  assert.deepEqual(readSpecText(join(dir, 'nope.json'), 1000), { error: 'no such file' });
});
