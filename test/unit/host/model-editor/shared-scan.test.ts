// One scan shared by the editors of a file (src/host/model-editor/shared-scan.ts): helpers join only
// once a webview has booted and end with the scan (none is made after it); subscribers hear the shape,
// every head and the end, or the failure once; a stopped scan asks for nothing more and tells nobody.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReaderError, type ModelReading } from '../../../../src/host/model-editor/reader.js';
import { SharedScan, type ScanSource, type ScanSubscriber } from '../../../../src/host/model-editor/shared-scan.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';
import { eachHeadOnce, Gate, LocalReader, LogStandIn, passesOf, settle, until } from './stand-ins.js';

const values = randomAttention(2, 2, 5, 6);
const file = () => memoryAttention(values, 2, 2, 5);

/** A source whose webview boots when the test says; helpers (at most `helpers`) read at `gate` too. */
function source(gate: Gate, helpers: number, opened?: Promise<never>) {
  const main = new LocalReader(file, { passes: gate });
  const made: LocalReader[] = [];
  let boot: () => void = () => {};
  const log = new LogStandIn();
  const src: ScanSource = {
    opened: opened ?? main.open('m').then((shape) => ({ shape, reader: main as ModelReading })),
    booted: new Promise<void>((resolve) => { boot = resolve; }),
    helperCount: () => helpers,
    openHelper: () => { const reader = new LocalReader(file, { passes: gate }); made.push(reader); return { reader, opened: reader.open('m') }; },
    weightsPerRange: 25,
    log,
  };
  return { src, main, made, boot: () => boot(), log };
}

/** A subscriber that notes what it hears. */
function listener(): ScanSubscriber & { heard: string[] } {
  const heard: string[] = [];
  return { heard, scanned: (flush) => { heard.push(flush ? 'flush' : 'more'); }, failed: (message) => { heard.push(`failed: ${message}`); } };
}

async function drain(gate: Gate, scan: SharedScan): Promise<void> {
  while (!scan.finished) {
    await until('a range asked for, or the end', () => gate.waiting > 0 || scan.finished);
    gate.release();
  }
}

test('helpers join once a webview has booted and end with the scan; a scan done before the boot makes none', async () => {
  const gate = new Gate();
  const { src, main, made, boot } = source(gate, 2);
  const scan = new SharedScan({}, src);
  const heard = listener();
  scan.subscribers.add(heard);
  const running = scan.run();
  await until('the first range asked for', () => gate.waiting === 1);
  assert.equal(made.length, 0, 'no helper while the webview boots');
  assert.deepEqual(heard.heard, ['flush'], 'the shape, at once');
  assert.equal(scan.read, 0);
  assert.ok(scan.header()?.stats.length === 0);
  boot();
  await until('both helpers reading', () => made.length === 2 && gate.waiting === 3);
  await drain(gate, scan);
  await running;
  assert.deepEqual(passesOf([main, ...made]), eachHeadOnce(4));
  assert.ok(made.every((h) => h.disposed) && !main.disposed, 'the helpers end with the scan, the document\'s reader stays');
  assert.equal(heard.heard.at(-1), 'flush', 'the end, at once');
  assert.equal(heard.heard.filter((h) => h === 'flush').length, 2, 'the shape and the end at once, the heads between as they came');
  assert.ok(heard.heard.includes('more'));
  assert.ok(scan.scanMs !== undefined);
  assert.equal(scan.read, 4);
  assert.equal(scan.header()!.stats.length, 4);

  const gate2 = new Gate();
  const late = source(gate2, 2);
  const done = new SharedScan({}, late.src);
  const ran = done.run();
  await drain(gate2, done);
  await ran;
  late.boot();
  await settle();
  assert.equal(late.made.length, 0, 'no helper for a scan already done');
});

test('a scan whose file was refused tells each subscriber once and logs nothing; another failure is logged; a stopped scan asks nothing more and tells nobody', async () => {
  const refused = Promise.reject(new ReaderError('m: not a model file', true));
  refused.catch(() => {});
  const { src, log } = source(new Gate(), 0, refused);
  const scan = new SharedScan({}, src);
  const [one, two] = [listener(), listener()];
  scan.subscribers.add(one).add(two);
  await scan.run();
  assert.deepEqual(one.heard, ['failed: m: not a model file']);
  assert.deepEqual(two.heard, ['failed: m: not a model file']);
  assert.equal(scan.error, 'm: not a model file');
  assert.deepEqual(log.errors, []);

  const lost = Promise.reject(new Error('the worker stopped'));
  lost.catch(() => {});
  const other = source(new Gate(), 0, lost);
  const failing = new SharedScan({}, other.src);
  await failing.run();
  assert.equal(failing.error, 'the worker stopped');
  assert.equal(other.log.errors.length, 1);

  const gate = new Gate();
  const held = source(gate, 0);
  const stopped = new SharedScan({}, held.src);
  const heard = listener();
  stopped.subscribers.add(heard);
  const running = stopped.run();
  await until('the first range asked for', () => gate.waiting === 1);
  stopped.stop();
  gate.release();
  await running;
  assert.deepEqual(passesOf([held.main]), [[0, 1]], 'the range under way ends, no other is asked for');
  assert.deepEqual(heard.heard, ['flush'], 'only the shape, heard before the stop');
  assert.equal(stopped.finished, false);
  assert.equal(stopped.error, undefined);
});

test('helpers that would each inflate the file again join only within the budget: none for a 400 MB copy, one for 200 MB, all for a file read in place', async () => {
  for (const [inflated, expected] of [[400e6, 0], [200e6, 1], [undefined, 3]] as const) {
    const gate = new Gate();
    const { src, main, made, boot } = source(gate, 3);
    const opened = main.open('m').then((shape) => ({ shape: { ...shape, ...(inflated ? { inflated } : {}) }, reader: main as ModelReading }));
    const scan = new SharedScan({}, { ...src, opened });
    const running = scan.run();
    boot();
    await until('the first range asked for', () => gate.waiting >= 1);
    await drain(gate, scan);
    await running;
    assert.equal(made.length, expected, `${inflated} bytes inflated per reader`);
    assert.deepEqual(passesOf([main, ...made]), eachHeadOnce(4));
  }
});
