// Reading a spec with a byte budget, whatever the path names: endless devices, pipes, bad encodings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, constants, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { readSpecText, firstInvalidUtf8, isStdin } from '../../../src/cli/read-file.js';
import { ROOT } from '../../support/paths.js';
import { runInChild } from '../../support/child.js';
import { PIPE_IDLE_MS } from '../../../src/core/files/read-bounded.js';
import { tempDir } from '../../support/temp-dir.js';
import { between, seeded } from '../../support/random.js';

const dir = tempDir('attn-read-');

test('/dev/zero is refused as what it is, before a byte is read; a FIFO with no writer is read at once, as empty', () => {
  assert.deepEqual(readSpecText('/dev/zero', 1000), { error: 'is a character device, not a file: expected a .attn.json file (give - to read standard input)' });
  assert.deepEqual(readSpecText(dir, 1000, 'a text file'), { error: 'is a directory, expected a text file' });
  const fifo = join(dir, 'lonely.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  // A blocking open would wait here for a writer for ever; the non-blocking one finds the pipe ended.
  assert.deepEqual(readSpecText(fifo, 1000), { text: '' });
});

test('a pipe whose writer keeps it open and sends nothing is given up in one line, not waited on for ever', () => {
  const fifo = join(dir, 'quiet.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  // This process is the quiet writer: O_RDWR opens a FIFO at once on Linux and holds its write end.
  const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  try {
    const child = runInChild(`const { readSpecText } = require('./src/cli/read-file.ts');
      console.log(JSON.stringify(readSpecText(process.argv[1], 1000, 'a text file')));`, fifo, 19_000);
    assert.equal(child.signal, null, 'the read blocked');
    assert.deepEqual(JSON.parse(child.stdout), { error: `a pipe whose writer sent nothing for ${PIPE_IDLE_MS / 1000} s; gave up waiting` });
  } finally {
    closeSync(writer);
  }
});

test('every name of standard input is one predicate, and each reads standard input: -, /dev/stdin, /dev/fd/0', () => {
  for (const name of ['-', '/dev/stdin', '/dev/fd/0']) assert.equal(isStdin(name), true, name);
  for (const name of ['', '--', '/dev/fd/1', '/dev/stdin2', './-', 'stdin']) assert.equal(isStdin(name), false, name);
  const script = `const { readSpecText } = require(${JSON.stringify(join(ROOT, 'src', 'cli', 'read-file.ts'))});
    process.stdout.write(JSON.stringify(readSpecText(process.argv[1], 100)));`;
  for (const name of ['-', '/dev/stdin', '/dev/fd/0']) {
    // Node gives a child a socket as its standard input: opening /dev/fd/0 by name would fail (ENXIO).
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script, name], { input: '{"y":2}', encoding: 'utf8' });
    assert.deepEqual(JSON.parse(r.stdout), { text: '{"y":2}' }, name);
  }
});

test('a file over the budget is refused after max-bytes + 1 bytes', () => {
  const file = join(dir, 'big.attn.json');
  writeFileSync(file, ' '.repeat(1001));
  assert.deepEqual(readSpecText(file, 1000), { error: '1:1: the spec is over the 1000 bytes limit: a spec is for small, readable examples; big tensors belong in a binary file' });
  assert.deepEqual(readSpecText(file, 1000, 'a text file'), { error: 'the text is over the 1,000-byte limit (--max-bytes): give a shorter text' });
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
  assert.deepEqual(readSpecText(dir, 1000, 'a text file'), { error: 'is a directory, expected a text file' });
  assert.deepEqual(readSpecText(join(dir, 'nope.json'), 1000), { error: 'no such file' });
});

/** UTF-16 (LE or BE, with or without a byte-order mark) of `text`. */
function utf16(text: string, bigEndian: boolean, bom: boolean): Buffer {
  const le = Buffer.from(text, 'utf16le');
  const body = bigEndian ? Buffer.from(le).swap16() : le;
  return bom ? Buffer.concat([Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]), body]) : body;
}

test('a text file is told about in text words, a spec in spec words: UTF-16, NUL bytes, a folder, over the budget (seeded family)', () => {
  const rand = seeded(7);
  const words = ['the cat', 'sat on', 'the mat.', '{"a": 1}', 'é', '\n'];
  for (let i = 0; i < 60; i++) {
    const text = Array.from({ length: between(rand, 2, 8) }, () => words[between(rand, 0, words.length - 1)]).join(' ');
    const file = join(dir, `family-${i}`);
    const shape = i % 3;
    if (shape === 0) {
      // Real UTF-16 of Latin text, either byte order, with or without a byte-order mark.
      writeFileSync(file, utf16(text, rand() < 0.5, rand() < 0.5));
      assert.deepEqual(readSpecText(file, 10_000, 'a text file'), { error: '1:1: the file is UTF-16; save it as UTF-8 (a text file is read as UTF-8)' }, text);
      assert.deepEqual(readSpecText(file, 10_000), { error: '1:1: the file is UTF-16; save it as UTF-8 (JSON files are UTF-8)' }, text);
    } else {
      // UTF-8 text with NUL bytes in it (a binary file, or a text with a stray NUL): never "UTF-16".
      const bytes = Buffer.from(text, 'utf8');
      const at = between(rand, 0, bytes.length);
      const nuls = shape === 1 ? 1 : between(rand, 2, 40);
      const data = Buffer.concat([bytes.subarray(0, at), Buffer.alloc(nuls), bytes.subarray(at)]);
      writeFileSync(file, data);
      const asText = readSpecText(file, 10_000, 'a text file');
      assert.ok('error' in asText && asText.error.endsWith(`the file holds a NUL byte (at offset ${at}): it is binary, not text`), `${JSON.stringify(asText)} for ${JSON.stringify(data.toString('latin1'))}`);
      assert.doesNotMatch(asText.error, /UTF-16|JSON|spec/);
      const asSpec = readSpecText(file, 10_000);
      assert.ok('error' in asSpec && asSpec.error.endsWith('it is binary, not a JSON spec'), JSON.stringify(asSpec));
    }
  }
});
