// A model reader on the host's own thread (src/host/model-editor/in-thread-lane.ts), where the web
// runtime gives no Worker: each request waits for a turn of the event loop, so a scan of many ranges
// lets events in between its slices (the editor and VS Code stay live); it reads what a worker reads;
// a refusal is the reader's error; closing it fails what waits and reads nothing more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InThreadLane } from '../../../../src/host/model-editor/in-thread-lane.js';
import { FileAnswers } from '../../../../src/host/model-editor/file-answers.js';
import { ModelReader, ReaderError, type FileOpening, type ReaderLanes } from '../../../../src/host/model-editor/reader.js';
import { headRanges, scanWithReaders } from '../../../../src/host/model-editor/scan.js';
import { openAttention } from '../../../../src/core/files/open.js';
import { scanModel, headerOf } from '../../../../src/core/model-attention/scan.js';
import { randomAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { tempDir } from '../../../support/temp-dir.js';

/** Opens a file from its bytes, as the web does after workspace.fs read them. */
const fromBytes: FileOpening = async (path, open) => {
  const bytes = readFileSync(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { request: { op: 'openBytes', name: path, bytes: buffer, ...(open ? { open } : {}) }, transfer: [buffer] };
};

/** A reader on this thread, with its lane at hand. */
function inThreadReader(yieldNow?: () => Promise<void>): { reader: ModelReader; lane: () => InThreadLane<unknown> } {
  let made: InThreadLane<unknown> | undefined;
  const lanes: ReaderLanes = { lane: (_job, options) => { const l = new InThreadLane(new FileAnswers(), options, yieldNow); made = l as InThreadLane<unknown>; return l; } };
  const reader = new ModelReader(lanes, undefined, fromBytes);
  return { reader, lane: () => made! };
}

function modelFile(layers: number, heads: number, n: number): string {
  const file = join(tempDir('attn-in-thread-'), 'm.safetensors');
  writeSafetensors(file, randomAttention(layers, heads, n, 3), layers, heads, n);
  return file;
}

test('a scan on the host\'s thread lets events in between its slices, and reads what one pass reads', async () => {
  const file = modelFile(4, 3, 6);
  const { reader, lane } = inThreadReader();
  try {
    const shape = await reader.open(file);
    const ranges = headRanges(shape, 36).length;
    assert.equal(ranges, 12);
    // After each slice, an event (a timer, as a message or a keystroke would be) is queued: it must run
    // before the slice after next is read (the next one may already wait for its turn), never after them all.
    const seen: { after: number; answered: number }[] = [];
    const done = await scanWithReaders([reader], shape, {}, () => {
      const after = lane().answered;
      setTimeout(() => seen.push({ after, answered: lane().answered }), 0);
    }, () => false, 36);
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(seen.length, ranges);
    for (const s of seen) assert.ok(s.answered <= s.after + 1, `an event queued after slice ${s.after} ran only after slice ${s.answered}`);
    const local = openAttention(file);
    assert.deepEqual(headerOf(shape, done.result(), {}), { ...scanModel(local).header });
    local.close();
  } finally {
    reader.dispose();
  }
});

test('every request waits for its turn: one yield each', async () => {
  let yields = 0;
  const { reader, lane } = inThreadReader(() => { yields++; return Promise.resolve(); });
  try {
    const shape = await reader.open(modelFile(2, 2, 5));
    await scanWithReaders([reader], shape, {}, () => {}, () => false, 25);
    await reader.rollout({});
    assert.equal(lane().answered, 1 + 4 + 1);
    assert.equal(yields, lane().answered);
  } finally {
    reader.dispose();
  }
});

test('a file the reader refuses is the reader\'s error; closed, what waits fails and nothing more is read', async () => {
  const dir = tempDir('attn-in-thread-');
  const bad = join(dir, 'bad.safetensors');
  writeFileSync(bad, Buffer.from([1, 2, 3]));
  const { reader, lane } = inThreadReader();
  await assert.rejects(reader.open(bad), (e: unknown) => e instanceof ReaderError && e.tensorError && e.message.startsWith(bad));
  await reader.open(modelFile(1, 2, 4));
  const waiting = reader.head(0, 1, {});
  reader.dispose();
  await assert.rejects(waiting, /the model reader was closed/);
  await assert.rejects(reader.head(0, 0, {}), /the model reader was closed/);
  assert.equal(lane().answered, 2, 'the two opens only');
});

/** What opening `file` on a reader of the host's thread gives: its shape's size, or the refusal's words. */
async function openedOnTheThread(file: string): Promise<string> {
  const { reader } = inThreadReader();
  try {
    const shape = await reader.open(file);
    return `${shape.layers} × ${shape.heads} × ${shape.tokens}`;
  } catch (e) {
    assert.ok(e instanceof ReaderError && e.tensorError, `a reader's refusal of the file: ${String(e)}`);
    assert.ok(!e.message.includes('\n'));
    return e.message;
  } finally {
    reader.dispose();
  }
}

test('on the host\'s thread a file is opened only when its one-pass checks stay short: over 32 MiB it is refused, naming it', async () => {
  // 1 × 1 × 3,000² float32: 34.3 MiB, whose opening (an .npz's CRC-32) would be one long slice.
  const big = modelFile(1, 1, 3000);
  assert.equal(await openedOnTheThread(big), `${big}: 34.4 MiB, over the 32.0 MiB the model editor reads on VS Code's own thread when the runtime gives no Web Worker (more would stall the editor); open it in VS Code on the desktop`);
  // Past the rollout's token limit it has no rollout to compute: within the bytes, it opens.
  assert.equal(await openedOnTheThread(modelFile(1, 1, 1100)), '1 × 1 × 1100');
});

test('on the host\'s thread a file whose rollout is one computation over 10⁸ multiply-adds is refused; a smaller one opens', async () => {
  const long = modelFile(2, 1, 400);
  assert.equal(await openedOnTheThread(long), `${long}: its rollout (2 layers × 400³ = 1.3e+8 multiply-adds) is over the 1e+8 the model editor computes on VS Code's own thread when the runtime gives no Web Worker (more would stall the editor); open it in VS Code on the desktop`);
  assert.equal(await openedOnTheThread(modelFile(2, 1, 300)), '2 × 1 × 300');
});
