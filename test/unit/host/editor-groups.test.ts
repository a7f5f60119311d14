// Where a view opened beside an editor goes (src/host/editor-groups.ts): Beside only when the window
// has one group, else an existing group other than the editor's, on seeded layouts of groups.
import '../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BESIDE, besideColumn } from '../../../src/host/editor-groups.js';
import { ViewColumn } from '../../support/vscode/index.js';
import { between, seeded } from '../../support/random.js';

test('BESIDE is VS Code\'s ViewColumn.Beside', () => {
  assert.equal(BESIDE, ViewColumn.Beside);
});

test('one group: beside it (a second group); two: the other one; three: the next to the right, else the left', () => {
  assert.equal(besideColumn(1, [1]), BESIDE);
  assert.equal(besideColumn(undefined, []), BESIDE);
  assert.equal(besideColumn(1, [1, 2]), 2);
  assert.equal(besideColumn(2, [1, 2]), 1, 'the notebook in the second group: the first, not a third');
  assert.equal(besideColumn(2, [1, 2, 3]), 3);
  assert.equal(besideColumn(3, [1, 2, 3]), 2);
  assert.equal(besideColumn(undefined, [1, 2]), 2, 'an unknown column counts as the first');
});

test('seeded layouts: never a new group when there are two or more, never the editor\'s own', () => {
  const rand = seeded(9);
  for (let c = 0; c < 500; c++) {
    const groups = Array.from({ length: between(rand, 0, 6) }, () => between(rand, -3, 9));
    const from = rand() < 0.2 ? undefined : between(rand, -1, 9);
    const got = besideColumn(from, groups);
    const real = new Set(groups.filter((g) => g >= 1));
    if (real.size <= 1) { assert.equal(got, BESIDE, `case ${c}`); continue; }
    assert.ok(real.has(got), `case ${c}: ${got} is one of ${[...real]}`);
    if (from !== undefined && real.has(from)) assert.notEqual(got, from, `case ${c}`);
  }
});
