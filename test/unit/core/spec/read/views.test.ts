// View options (src/core/spec/read/views.ts): the quadrant plot's axes (a feature, a one-hot
// direction labelled with its name, or a direction of d_model labelled with its path), their ends
// and the four quadrant names; every problem at its own path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { BASE, only, specOf } from '../../../../support/spec-problems.js';

// Moved from test/unit/core/spec/read.test.ts, every assertion kept.
test('quadrant axes must name known features or give a direction', () => {
  const p = only(JSON.stringify({ ...BASE, views: { quadrant: { x: { feature: 'nope' }, y: { direction: [0, 1, 0] } } } }));
  assert.equal(p.path, 'views.quadrant.x.feature');
  assert.match(p.message, /unknown feature "nope": expected one of a, b, c/);
});

test('an axis with both "feature" and "direction" is refused, as the schema does', () => {
  const p = only(JSON.stringify({ ...BASE, views: { quadrant: { x: { feature: 'a', direction: [1, 0, 0] }, y: { feature: 'b' } } } }));
  assert.equal(p.path, 'views.quadrant.x.direction');
});

test('no views, or views without a quadrant: no options', () => {
  assert.deepEqual(specOf(BASE).views, {});
  assert.deepEqual(specOf({ ...BASE, views: {} }).views, {});
});

test('a feature axis is its one-hot direction, labelled with the feature; a direction axis is labelled with its path', () => {
  const q = specOf({ ...BASE, views: { quadrant: { x: { feature: 'b' }, y: { direction: [1, 0, -1] } } } }).views.quadrant!;
  assert.equal(q.x.label, 'b');
  assert.deepEqual(Array.from(q.x.direction), [0, 1, 0]);
  assert.equal(q.y.label, 'views.quadrant.y');
  assert.deepEqual(Array.from(q.y.direction), [1, 0, -1]);
  assert.equal('ends' in q.x, false);
  assert.equal('quadrants' in q, false);
});

test('labels, ends and quadrant names are kept as written', () => {
  const q = specOf({ ...BASE, views: { quadrant: {
    x: { feature: 'a', label: 'tech', ends: ['fruit', 'gadget'] },
    y: { direction: [0, 0, 2], label: 'c twice' },
    quadrants: ['TR', 'TL', 'BL', 'BR'],
  } } }).views.quadrant!;
  assert.equal(q.x.label, 'tech');
  assert.deepEqual(q.x.ends, ['fruit', 'gadget']);
  assert.equal(q.y.label, 'c twice');
  assert.deepEqual(Array.from(q.y.direction), [0, 0, 2]);
  assert.deepEqual(q.quadrants, ['TR', 'TL', 'BL', 'BR']);
});

test('bad quadrant options are refused at their path, with their sentence', () => {
  const axis = { feature: 'a' };
  const cases: [unknown, string, string][] = [
    [{ quadrant: { x: axis } }, 'views.quadrant', 'a quadrant plot needs both "x" and "y" axes'],
    [{ quadrant: { x: axis, y: {} } }, 'views.quadrant.y', 'an axis needs "feature" (a feature name) or "direction" (a vector over the features)'],
    [{ quadrant: { x: axis, y: { direction: [0, 0, 0] } } }, 'views.quadrant.y.direction', 'a direction cannot be all zeros'],
    [{ quadrant: { x: { feature: 'a', ends: ['low'] }, y: axis } }, 'views.quadrant.x.ends', 'expected two names: the low end, then the high end'],
    [{ quadrant: { x: axis, y: axis, quadrants: ['a', 'b', 'c'] } }, 'views.quadrant.quadrants', 'expected four names: top-right, top-left, bottom-left, bottom-right'],
    [{ quadrant: { x: axis, y: { direction: [1, 0] } } }, 'views.quadrant.y.direction', ''],
    [{ quadrant: { x: axis, y: axis, quadrants: ['a', 'b', 'c', 4] } }, 'views.quadrant.quadrants[3]', ''],
    [[], 'views', ''],
  ];
  for (const [v, path, message] of cases) {
    const p = only(JSON.stringify({ ...BASE, views: v }));
    assert.equal(p.path, path, JSON.stringify(v));
    if (message) assert.equal(p.message, message, JSON.stringify(v));
  }
});

test('an unknown key in the views or an axis is a warning, and the options are still read', () => {
  const { spec, problems } = readSpec(JSON.stringify({ ...BASE, views: { quadrant: { x: { feature: 'a', colour: 'red' }, y: { feature: 'b' } }, arcs: {} } }));
  assert.deepEqual(problems.map((p) => [p.severity, p.path]).sort(), [['warning', 'views.arcs'], ['warning', 'views.quadrant.x.colour']]);
  assert.equal(spec!.views.quadrant!.x.label, 'a');
});
