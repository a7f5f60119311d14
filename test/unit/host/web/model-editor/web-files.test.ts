// The model editor's files on the web (src/host/web/model-editor/web-files.ts): read through
// vscode.workspace.fs (the stand-in's, over the disk) and opened from memory on the host's thread
// (no Worker here), the same files the desktop's reader opens from disk in its worker thread
// (dist/scan-worker.js: run `node scripts/build.mjs` first) give the same scan, heads, windows, tiles
// and rollout, bit for bit; a tokens file beside the file is read as the desktop reads it; a file over
// the limit is refused in one line with its name, its size and the limit, before a byte is read.
import '../../../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type * as vscode from 'vscode';
import { MAX_WEB_MODEL_FILE_BYTES, readModelFile, webModelFiles } from '../../../../../src/host/web/model-editor/web-files.js';
import { ReaderError, type ModelReading } from '../../../../../src/host/model-editor/reader.js';
import { diskModelFiles } from '../../../../../src/host/model-editor/disk-files.js';
import { scanWithReaders } from '../../../../../src/host/model-editor/scan.js';
import { headerOf } from '../../../../../src/core/model-attention/scan.js';
import { distScripts, WorkerService } from '../../../../../src/host/workers/service.js';
import { asVscode, Uri } from '../../../../support/vscode/index.js';
import { randomAttention, writeSafetensors } from '../../../../support/model-fixture.js';
import { npyFloat32, zipOf } from '../../../../support/tensor-files.js';
import { ROOT } from '../../../../support/paths.js';
import { tempDir } from '../../../../support/temp-dir.js';

const workers = new WorkerService(distScripts(join(ROOT, 'dist')));
const extensionUri = asVscode<vscode.Uri>(Uri.file(ROOT));
const web = () => webModelFiles(extensionUri, false);
const desktop = diskModelFiles(workers);

/** What the editor shows of a file, read by `reader` opening `path`: its whole scan, heads, a window, tiles, the rollout. */
async function everything(reader: ModelReading, path: string, perRange: number) {
  try {
    const shape = await reader.open(path);
    const done = await scanWithReaders([reader], shape, {}, () => {}, () => false, perRange);
    const soft = await scanWithReaders([reader], shape, { softmax: true }, () => {}, () => false, perRange);
    const big = shape.tokens > 256;
    return {
      shape: { ...shape, file: undefined },
      header: { ...headerOf(shape, done.result(), {}), file: undefined },
      softmax: { ...headerOf(shape, soft.result(), { softmax: true }), file: undefined },
      thumbnails: Buffer.from(done.thumbnails.buffer).toString('base64'),
      head: big ? undefined : Array.from(await reader.head(shape.layers - 1, shape.heads - 1, {})),
      picture: big ? await reader.picture(0, 0, {}) : undefined,
      window: Array.from(await reader.window(0, 0, 1, 3, 0, 4, {})),
      tile: big ? await reader.tile!(0, 0, 1, 0, 0, 64, 64, {}) : undefined,
      rollout: Array.from((await reader.rollout({})) ?? []),
    };
  } finally {
    reader.dispose();
  }
}

const uriOf = (path: string) => Uri.file(path).toString();

test('a .safetensors read through workspace.fs shows what the desktop reads from disk, bit for bit', async () => {
  const dir = tempDir('attn-web-files-');
  const file = join(dir, 'm.safetensors');
  const values = randomAttention(3, 2, 9, 4);
  values[7] = 0.8; // a row off 1: its warning is the same on both
  writeSafetensors(file, values, 3, 2, 9, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  const onWeb = await everything(web().newReader(), uriOf(file), 2 * 81);
  const onDisk = await everything(desktop.newReader(), file, 2 * 81);
  assert.deepEqual(onWeb, onDisk);
  assert.deepEqual(onWeb.shape.tokenTexts, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  assert.equal(onWeb.header.offRows, 1);
  assert.equal(onWeb.head!.length, 81);
});

test('a big head (its map, tiles and picture) read on the web is the desktop\'s, bit for bit', async () => {
  const dir = tempDir('attn-web-files-');
  const file = join(dir, 'big.safetensors');
  writeSafetensors(file, randomAttention(1, 2, 300, 5), 1, 2, 300);
  const onWeb = await everything(web().newReader(), uriOf(file), 300 * 300);
  const onDisk = await everything(desktop.newReader(), file, 300 * 300);
  assert.deepEqual(onWeb, onDisk);
  assert.ok(onWeb.tile && onWeb.picture, 'a big head is read as a map');
});

test('an .npy with its tokens file beside it: the tokens and numbers are the desktop\'s; a bad tokens file says what the desktop says', async () => {
  const dir = tempDir('attn-web-files-');
  const file = join(dir, 'run.npy');
  writeFileSync(file, npyFloat32([2, 2, 4, 4], Array.from(randomAttention(2, 2, 4, 8))));
  writeFileSync(join(dir, 'run.tokens.json'), JSON.stringify(['the', 'cat', 'sat', 'down']));
  const onWeb = await everything(web().newReader(), uriOf(file), 16);
  assert.deepEqual(onWeb, await everything(desktop.newReader(), file, 16));
  assert.deepEqual(onWeb.shape.tokenTexts, ['the', 'cat', 'sat', 'down']);
  // A tokens file of the wrong kind: refused in the same words on both (its path is the file's on either).
  writeFileSync(join(dir, 'run.tokens.json'), '{"not": "a list"}');
  const refusal = async (reader: ModelReading, path: string) => {
    try {
      await reader.open(path);
      return 'opened';
    } catch (e) {
      return e instanceof ReaderError && e.tensorError ? e.message : `not a reader's refusal: ${String(e)}`;
    } finally {
      reader.dispose();
    }
  };
  const said = await refusal(web().newReader(), uriOf(file));
  assert.equal(said, `${join(dir, 'run.tokens.json')}: must be a JSON array of strings`);
  assert.equal(said, await refusal(desktop.newReader(), file));
  // A folder in its place is no tokens file either.
  const folder = join(dir, 'box.npy');
  writeFileSync(folder, npyFloat32([1, 1, 2, 2], [1, 0, 0.5, 0.5]));
  mkdirSync(join(dir, 'box.tokens.json'));
  assert.match(await refusal(web().newReader(), uriOf(folder)), /box\.tokens\.json: not a regular file \(a directory\)/);
  // An .npy named by a spec with tokens of its own: the spec's win, as on the desktop.
  const reader = web().newReader();
  try {
    writeFileSync(join(dir, 'run.tokens.json'), JSON.stringify(['the', 'cat', 'sat', 'down']));
    const shape = await reader.open(uriOf(file), { tokens: ['w', 'x', 'y', 'z'] });
    assert.deepEqual(shape.tokenTexts, ['w', 'x', 'y', 'z']);
    assert.match(shape.notes?.join('\n') ?? '', /the spec's tokens are shown, not the file's own \("the" "cat" "sat" "down"\)/);
  } finally {
    reader.dispose();
  }
});

test('an .npz, its members stored or deflated (inflated by the host), is the desktop\'s, bit for bit; a damaged member is refused in the desktop\'s words', async () => {
  const dir = tempDir('attn-web-files-');
  const attn = npyFloat32([2, 2, 5, 5], Array.from(randomAttention(2, 2, 5, 6)));
  const other = npyFloat32([1, 1, 5, 5], Array.from(randomAttention(1, 1, 5, 2)));
  for (const deflate of [false, true]) {
    const file = join(dir, `run-${deflate ? 'compressed' : 'stored'}.npz`);
    writeFileSync(file, zipOf([{ name: 'attn.npy', data: attn, deflate }, { name: 'other.npy', data: other, deflate }]));
    writeFileSync(file.replace(/\.npz$/, '.tokens.json'), JSON.stringify(['a', 'b', 'c', 'd', 'e']));
    const web = webModelFiles(extensionUri, false).newReader(), disk = desktop.newReader();
    try {
      const [onWeb, onDisk] = [await web.open(uriOf(file), { tensor: 'attn' }), await disk.open(file, { tensor: 'attn' })];
      assert.deepEqual({ ...onWeb, file: '' }, { ...onDisk, file: '' });
      assert.deepEqual(onWeb.tokenTexts, ['a', 'b', 'c', 'd', 'e']);
      assert.equal(onWeb.inflated, deflate ? attn.length : undefined, 'what was inflated is said');
      assert.deepEqual(Array.from(await web.head(1, 1, {})), Array.from(await disk.head(1, 1, {})));
      assert.deepEqual(Array.from((await web.rollout({}))!), Array.from((await disk.rollout({}))!));
    } finally {
      web.dispose();
      disk.dispose();
    }
  }
  const refusal = async (reader: ModelReading, path: string) => {
    try {
      await reader.open(path);
      return 'opened';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    } finally {
      reader.dispose();
    }
  };
  const damaged = join(dir, 'damaged.npz');
  writeFileSync(damaged, zipOf([{ name: 'attn.npy', data: attn, deflate: true, crc: 0x1234 }]));
  const said = await refusal(webModelFiles(extensionUri, false).newReader(), uriOf(damaged));
  assert.match(said, /attn\.npy: its bytes do not match the zip's CRC-32/);
  assert.equal(said, await refusal(desktop.newReader(), damaged));
  // A member that inflates past its declared size (a bomb) stops there, on both.
  const bomb = join(dir, 'bomb.npz');
  writeFileSync(bomb, zipOf([{ name: 'attn.npy', data: attn, deflate: true, declaredSize: 100 }]));
  const bombSaid = await refusal(webModelFiles(extensionUri, false).newReader(), uriOf(bomb));
  assert.match(bombSaid, /attn\.npy: the deflated data is damaged or larger than its declared 100 bytes \(it inflates past its declared 100 bytes\)/);
  assert.match(await refusal(desktop.newReader(), bomb), /attn\.npy: the deflated data is damaged or larger than its declared 100 bytes/);
});

test('a file over the limit is refused before it is read: one line with its name, its size and the limit', async () => {
  const dir = tempDir('attn-web-files-');
  const file = join(dir, 'huge.safetensors');
  writeFileSync(file, '');
  truncateSync(file, MAX_WEB_MODEL_FILE_BYTES + 1); // sparse: no disk taken
  await assert.rejects(readModelFile(uriOf(file), undefined), (e: unknown) => {
    assert.ok(e instanceof ReaderError && e.tensorError, String(e));
    assert.equal(e.message, `${file}: 512.1 MiB, over the 512.0 MiB the model editor reads into memory in VS Code for the Web; open it in VS Code on the desktop, which reads it from disk at offsets`);
    assert.ok(!e.message.includes('\n'));
    return true;
  });
  // Under it, the bytes are read and handed over to be transferred to the reader.
  const small = join(dir, 'small.safetensors');
  writeSafetensors(small, randomAttention(1, 1, 3, 1), 1, 1, 3);
  const opened = await readModelFile(uriOf(small), undefined);
  assert.equal(opened.request.op, 'openBytes');
  assert.equal(opened.transfer?.length, 1);
});

test('a missing file, a folder or a pipe is one line naming it; a pipe is never read (it would wait for a writer for ever)', async () => {
  const dir = tempDir('attn-web-files-');
  await assert.rejects(readModelFile(uriOf(join(dir, 'gone.npy')), undefined), (e: unknown) => e instanceof ReaderError && e.message.startsWith(`${join(dir, 'gone.npy')}: cannot be read (`));
  mkdirSync(join(dir, 'dir.npy'));
  const atOffsets = '(a tensor file is read at offsets, which a pipe or device does not allow)';
  await assert.rejects(readModelFile(uriOf(join(dir, 'dir.npy')), undefined), { message: `${join(dir, 'dir.npy')}: not a regular file but a directory ${atOffsets}` });
  execFileSync('mkfifo', [join(dir, 'pipe.npy')]);
  await assert.rejects(readModelFile(uriOf(join(dir, 'pipe.npy')), undefined), { message: `${join(dir, 'pipe.npy')}: not a regular file but a pipe, device or socket ${atOffsets}` });
  // The desktop's reader refuses it in the same words, naming the pipe as the disk knows it.
  const onDisk = desktop.newReader();
  try {
    await assert.rejects(onDisk.open(join(dir, 'pipe.npy')), { message: `${join(dir, 'pipe.npy')}: not a regular file but a pipe (FIFO) ${atOffsets}` });
  } finally {
    onDisk.dispose();
  }
  // A pipe in a tokens file's place is refused as a folder is: the file opens without its tokens.
  writeFileSync(join(dir, 'run.npy'), npyFloat32([1, 1, 2, 2], [1, 0, 0.5, 0.5]));
  execFileSync('mkfifo', [join(dir, 'run.tokens.json')]);
  const reader = web().newReader();
  try {
    await assert.rejects(reader.open(uriOf(join(dir, 'run.npy'))), { message: `${join(dir, 'run.tokens.json')}: not a regular file (a pipe, device or socket); a tokens file is a JSON array of strings` });
  } finally {
    reader.dispose();
  }
});

test('on the web one reader scans a file (a helper would hold the whole file again)', () => {
  assert.equal(web().helperCount?.({ file: 'x', dtype: 'F32', layers: 12, heads: 12, tokens: 512, tokenTexts: [], thumb: 16 }), 0);
});

test('an .npz whose deflated members would go past the limit with the file is refused from their declared sizes, before any is inflated', async () => {
  const dir = tempDir('attn-web-files-');
  const file = join(dir, 'bomb.npz');
  // A 4 MiB stored member, and one deflated member whose directory declares 510 MiB: 514 MiB held.
  const filler = Buffer.alloc(4 * 2 ** 20);
  const attn = npyFloat32([1, 1, 2, 2], [1, 0, 0.5, 0.5]);
  writeFileSync(file, zipOf([{ name: 'filler.npy', data: filler }, { name: 'attn.npy', data: attn, deflate: true, declaredSize: 510 * 2 ** 20 }]));
  const Real = globalThis.DecompressionStream;
  let inflating = 0;
  globalThis.DecompressionStream = class extends Real { constructor(format: CompressionFormat) { super(format); inflating++; } };
  try {
    await assert.rejects(readModelFile(uriOf(file), undefined), (e: unknown) => {
      assert.ok(e instanceof ReaderError && e.tensorError);
      assert.equal(e.message, `${file}: 4.1 MiB with 510.0 MiB of deflated members to inflate, over the 512.0 MiB the model editor holds in memory in VS Code for the Web; save it with np.savez (not compressed), or open it in VS Code on the desktop`);
      return true;
    });
    assert.equal(inflating, 0, 'nothing was inflated');
    // Within the room, the same member is inflated (and its lie about its size is the reader's to say).
    writeFileSync(file, zipOf([{ name: 'filler.npy', data: filler }, { name: 'attn.npy', data: attn, deflate: true }]));
    const opened = await readModelFile(uriOf(file), { tensor: 'attn' });
    assert.equal(inflating, 1);
    assert.equal(opened.transfer?.length, 2, 'the file and its inflated member, transferred');
  } finally {
    globalThis.DecompressionStream = Real;
  }
});
