// bench:vscode --profile's reading of a CPU profile: the longest busy stretch and whose code filled
// it, and the longest stretch with our code on the stack (a garbage collection inside it is ours,
// one after it is not).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readProfile, type CpuProfile } from '../../../scripts/cpu-profile.js';

const OURS = 'file:///ext/dist/extension.js';
const frame = (functionName: string, url = '') => ({ functionName, url });
const nodes = [
  { id: 1, callFrame: frame('(root)'), children: [2, 3, 5, 6] },
  { id: 2, callFrame: frame('(idle)') },
  { id: 3, callFrame: frame('update', OURS), children: [4] },
  { id: 4, callFrame: frame('parse', 'node:internal/json') },
  { id: 5, callFrame: frame('serializeReplyOK', 'file:///vscode/out/vs/workbench/api/node/extensionHostProcess.js') },
  { id: 6, callFrame: frame('(garbage collector)') },
];
const profile = (samples: number[]): CpuProfile => ({ nodes, startTime: 0, samples, timeDeltas: samples.map(() => 1000) });

test('the longest busy stretch, whose code filled it, and the longest stretch of ours', () => {
  const read = readProfile(profile([2, 3, 3, 6, 4, 2, 5, 5, 5, 5, 5, 6, 2]), (url) => url === OURS);
  assert.equal(read.busyMs, 6);
  assert.equal(read.busyOwners, 'extensionHostProcess.js 83%, (garbage collector) 17%');
  assert.equal(read.oursMs, 4, 'update, update, a GC within, then a built-in it called');
});

test('a collection after our code ends, followed by someone else\'s, is not charged to us', () => {
  const read = readProfile(profile([2, 3, 6, 5, 5, 2]), (url) => url === OURS);
  assert.equal(read.oursMs, 1);
  assert.equal(read.busyMs, 4);
  assert.match(read.busyOwners, /^extensionHostProcess\.js 50%/);
});

test('an idle profile has no stretch at all', () => {
  const read = readProfile(profile([2, 2, 2]), (url) => url === OURS);
  assert.deepEqual(read, { busyMs: 0, busyOwners: '', oursMs: 0 });
});
