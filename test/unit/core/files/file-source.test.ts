// Opening a file on disk (src/core/files/file-source.ts): only a regular file, never waited on, each
// refusal naming the file; a file that may be absent (the tokens beside an attention file) is undefined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileSource, openRegularFile } from '../../../../src/core/files/file-source.js';
import { runInChild } from '../../../support/child.js';
import { tempDir } from '../../../support/temp-dir.js';

const dir = tempDir('attn-source-');

test('a regular file opens with its size; a missing one is refused by name, or undefined when it may be absent', () => {
  const file = join(dir, 'seven.bin');
  writeFileSync(file, 'seven b');
  const opened = openRegularFile(file);
  assert.equal(opened.size, 7);
  closeSync(opened.fd);
  const missing = join(dir, 'missing.bin');
  assert.throws(() => openRegularFile(missing), { message: `${missing}: cannot open (ENOENT)` });
  assert.equal(openRegularFile(missing, '', true), undefined);
  const source = fileSource(file);
  assert.deepEqual(Array.from(source.read(2, 3)), Array.from(Buffer.from('ven')));
  source.close();
});

test('a folder is not a regular file, with the reason the caller gives, even when it may be absent', () => {
  assert.throws(() => openRegularFile(dir, ' (a tensor file is read at offsets)'), { message: `${dir}: not a regular file but a directory (a tensor file is read at offsets)` });
  assert.throws(() => openRegularFile(dir, '', true), { message: `${dir}: not a regular file but a directory` });
  assert.throws(() => fileSource(dir), { message: `${dir}: not a regular file but a directory (a tensor file is read at offsets, which a pipe or device does not allow)` });
});

test('a FIFO is refused at once, not waited on', () => {
  const fifo = join(dir, 'pipe.bin');
  execFileSync('mkfifo', [fifo]);
  const child = runInChild(`const { openRegularFile } = require('./src/core/files/file-source.ts');
    try { openRegularFile(process.argv[1], '', true); console.log('opened'); } catch (e) { console.log(e.message); }`, fifo, 20_000);
  assert.equal(child.signal, null, 'the child was killed after 20 s: opening the FIFO blocked');
  assert.equal(child.stdout.trim(), `${fifo}: not a regular file but a pipe (FIFO)`);
});

test('a socket and a device are named as what they are, before any open (a socket\'s open said only ENXIO)', async () => {
  const { createServer } = await import('node:net');
  const { symlinkSync } = await import('node:fs');
  const socket = join(dir, 'talk.sock');
  const server = createServer();
  await new Promise<void>((done) => server.listen(socket, done));
  try {
    assert.throws(() => fileSource(socket), { message: `${socket}: not a regular file but a socket (a tensor file is read at offsets, which a pipe or device does not allow)` });
  } finally {
    server.close();
  }
  const device = join(dir, 'zero.npy');
  symlinkSync('/dev/zero', device);
  assert.throws(() => openRegularFile(device, '', true), { message: `${device}: not a regular file but a character device` });
});
