// scripts/vscode/bench-result.mjs: what bench:vscode reports when the in-host bench finished, stopped
// part way (its partial result, the rest listed as not measured), or measured nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measuredAnything, missingLines, readBenchResult } from '../../../../scripts/vscode/bench-result.mjs';
import { tempDir } from '../../../support/temp-dir.js';

const row = { spec: 'a.attn.json', totalMs: [1] };

test('a finished run is read whole; its figures not taken are one line each, their reason\'s first line', () => {
  const file = join(tempDir('attn-bench-'), 'result.json');
  writeFileSync(file, JSON.stringify({ rows: [row], missing: [{ what: 'b.attn.json', why: 'timed out waiting for \'painted\' for v7\n    at until (index.ts:1)' }] }));
  writeFileSync(`${file}.partial`, JSON.stringify({ rows: [] }));
  const result = readBenchResult(file)!;
  assert.deepEqual(result.rows, [row], 'the whole result, not the partial one');
  assert.deepEqual(missingLines(result), ['not measured: b.attn.json: timed out waiting for \'painted\' for v7']);
  assert.equal(measuredAnything(result), true);
});

test('a host that stopped part way: its partial figures, and the rest as not measured with why', () => {
  const file = join(tempDir('attn-bench-'), 'result.json');
  writeFileSync(`${file}.partial`, JSON.stringify({ rows: [row], missing: [{ what: 'b.attn.json', why: 'the panel did not paint' }] }));
  const result = readBenchResult(file, 'nothing moved for 900 s while waiting for the bench inside VS Code')!;
  assert.deepEqual(result.rows, [row]);
  assert.deepEqual(missingLines(result), [
    'not measured: b.attn.json: the panel did not paint',
    'not measured: the rest of the bench: nothing moved for 900 s while waiting for the bench inside VS Code',
  ]);
  assert.equal(measuredAnything(result), true);
});

test('nothing written, or nothing measured: the run has nothing to report', () => {
  const file = join(tempDir('attn-bench-'), 'result.json');
  assert.equal(readBenchResult(file), undefined);
  writeFileSync(file, JSON.stringify({ rows: [], error: 'Error: the extension did not activate\n    at run' }));
  const result = readBenchResult(file)!;
  assert.equal(measuredAnything(result), false);
  assert.deepEqual(missingLines(result), ['the bench inside VS Code stopped: Error: the extension did not activate']);
  assert.equal(measuredAnything({ rows: [], models: [{}] }), true, 'model figures count');
});
