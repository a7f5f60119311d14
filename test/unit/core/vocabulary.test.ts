// The project's words (src/core/vocabulary.ts): the roles are listed once, and every list of a head's
// matrices (the spec reader, the analysis, the training, the result, the views) is taken from it; the
// schema and the README, which cannot import it, are compared with it name for name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  HEAD_ROLES, INIT_RULES, MASK_KINDS, MATRIX_MODES, MODEL_VIEW_NAMES, RUN_VIEW_NAMES, ROLE_PRODUCT, ROLE_SYMBOL, ROLE_VECTOR, ROLES, SCALE_WORDS, VIEW_NAMES,
} from '../../../src/core/vocabulary.js';
import { readSpec, TOP_LEVEL } from '../../../src/core/spec/read.js';
import { ATTENTION_KEYS, REFERENCE_KEYS } from '../../../src/core/spec/read/reference.js';
import { FILE_REF_KEYS } from '../../../src/core/spec/read/file-ref.js';
import { GENERATED_KEYS, VARIANCE_KEYS } from '../../../src/core/spec/read/init.js';
import { INPUT_KEYS, TOKEN_KEYS } from '../../../src/core/spec/read/inputs.js';
import { TARGET_KEYS, TRAIN_KEYS } from '../../../src/core/spec/read/train.js';
import { AXIS_KEYS, QUADRANT_KEYS, VIEWS_KEYS } from '../../../src/core/spec/read/views.js';
import { MODEL_SPEC_KEYS } from '../../../src/core/checkpoint-spec/read-model.js';
import { OPEN_KEYS } from '../../../src/core/spec/read/story.js';
import { targetAtPath } from '../../../src/core/spec/spec-target.js';
import { VIEW_TITLES } from '../../../webview/views/registry.js';
import { ROOT } from '../../support/paths.js';

test('a head\'s roles are the roles but the shared W_O, in the same order, and every role has its symbol, product and vector name', () => {
  assert.deepEqual([...ROLES], ['wq', 'wk', 'wv', 'wo']);
  assert.deepEqual([...HEAD_ROLES], ROLES.filter((r) => r !== 'wo'));
  assert.deepEqual(ROLES.map((r) => ROLE_SYMBOL[r]), ['W_Q', 'W_K', 'W_V', 'W_O']);
  assert.deepEqual(ROLES.map((r) => ROLE_PRODUCT[r]), ['query', 'key', 'value', 'output']);
  assert.deepEqual(ROLES.map((r) => ROLE_VECTOR[r]), ['q', 'k', 'v', 'output']);
});

test('the spec reader and the hover targets know a head by exactly the head roles', () => {
  for (const role of HEAD_ROLES) {
    assert.deepEqual(targetAtPath(['heads', 0, role, 1, 0]), { kind: 'matrix', role, head: 0, row: 1, col: 0 });
    const { problems } = readSpec(JSON.stringify({ embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ tokens: ['a', 'b'] }], heads: [{ [role]: [[1, 0], [0, 1]] }] }));
    assert.deepEqual(problems.filter((p) => p.severity === 'error'), [], role);
  }
  assert.equal(targetAtPath(['heads', 0, 'wo', 1, 0]), undefined, 'W_O is not a head\'s');
  const { problems } = readSpec(JSON.stringify({ embeddings: { a: [1, 0] }, inputs: [{ tokens: ['a'] }], heads: [{ wo: [[1, 0], [0, 1]] }] }));
  assert.deepEqual(problems.map((p) => p.message), ['unknown property "wo" (ignored); expected one of name, wq, wk, wv'], 'a head\'s "wo" is an unknown key');
});

// The copies of the vocabulary that cannot import it: the schema the editor checks specs with, and the
// README. A name added to vocabulary.ts and forgotten there (or the reverse) fails here: the editor would
// underline a spec the reader accepts, or the README would promise a view that does not exist.

const schema = JSON.parse(readFileSync(join(ROOT, 'schema', 'attn.schema.json'), 'utf8')) as Record<string, unknown>;
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The value at a JSON pointer ("/properties/open/…") of the schema. */
function at(pointer: string): unknown {
  return pointer.split('/').slice(1).reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], schema);
}

/** Both lists hold the same names, each once (the order of a copy is its own). */
function sameNames(actual: readonly unknown[], expected: readonly string[], what: string): void {
  assert.equal(new Set(actual).size, actual.length, `${what} names a word twice: ${actual.join(', ')}`);
  assert.deepEqual([...actual].sort(), [...expected].sort(), what);
}

/** Every string enum of the schema, and the vocabulary list each must equal. */
const SCHEMA_ENUMS: Record<string, readonly string[]> = {
  '/properties/open/properties/view/enum': VIEW_NAMES,
  '/properties/open/properties/matrix/enum': MATRIX_MODES,
  '/properties/open/properties/projection/enum': ROLES,
  '/properties/scale/oneOf/0/enum': SCALE_WORDS,
  '/properties/mask/enum': MASK_KINDS,
  '/definitions/generated/properties/init/oneOf/0/enum': INIT_RULES,
  '/properties/train/properties/learn/items/enum': HEAD_ROLES,
};

/** The pointer of every enum of strings in the schema. */
function stringEnums(node: unknown, pointer = ''): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const here = Array.isArray((node as { enum?: unknown }).enum) && (node as { enum: unknown[] }).enum.some((v) => typeof v === 'string') ? [`${pointer}/enum`] : [];
  return [...here, ...Object.entries(node).flatMap(([key, child]) => stringEnums(child, `${pointer}/${key}`))];
}

test('every list of names in the schema is its vocabulary list: the views, matrix modes and roles "open" takes, the scale and mask words, the init rules, the learnable roles', () => {
  // An enum the table does not know is a list of names with no source: it fails until it is added above.
  assert.deepEqual(stringEnums(schema).sort(), Object.keys(SCHEMA_ENUMS).sort());
  for (const [pointer, names] of Object.entries(SCHEMA_ENUMS)) {
    const list = at(pointer);
    assert.ok(Array.isArray(list), pointer);
    sameNames(list, names, pointer);
  }
});

/** Every closed object of the schema (additionalProperties false) and the keys its reader takes there. */
const SCHEMA_KEYS: Record<string, readonly string[]> = {
  '': [...new Set([...TOP_LEVEL, ...REFERENCE_KEYS, ...MODEL_SPEC_KEYS])],
  '/properties/open': OPEN_KEYS,
  '/properties/heads/items': ['name', ...HEAD_ROLES],
  '/properties/inputs/items': INPUT_KEYS,
  '/definitions/token/oneOf/1': TOKEN_KEYS,
  '/definitions/fileRef': FILE_REF_KEYS,
  // Embeddings from a file: a file reference and the word of each row (read/inputs.ts allows "words").
  '/properties/embeddings/anyOf/1': [...FILE_REF_KEYS, 'words'],
  '/definitions/generated': GENERATED_KEYS,
  '/definitions/generated/properties/init/oneOf/1': VARIANCE_KEYS,
  '/properties/train': TRAIN_KEYS,
  '/properties/train/properties/targets/items': TARGET_KEYS,
  '/properties/attention': ATTENTION_KEYS,
  '/properties/views': VIEWS_KEYS,
  '/properties/views/properties/quadrant': QUADRANT_KEYS,
  '/definitions/axis': AXIS_KEYS,
};

/** The pointer of every object schema that refuses keys it does not list. */
function closedObjects(node: unknown, pointer = ''): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const here = (node as { additionalProperties?: unknown }).additionalProperties === false ? [pointer] : [];
  return [...here, ...Object.entries(node).flatMap(([key, child]) => closedObjects(child, `${pointer}/${key}`))];
}

test('every closed object of the schema lists exactly the keys its reader takes, so the editor and the reader refuse the same keys', () => {
  assert.deepEqual(closedObjects(schema).sort(), Object.keys(SCHEMA_KEYS).sort());
  for (const [pointer, keys] of Object.entries(SCHEMA_KEYS)) {
    sameNames(Object.keys((at(`${pointer}/properties`) ?? {}) as object), keys, pointer || 'the top level');
  }
});

test('the generated-weight snippet offers exactly the init rules', () => {
  const body = (at('/definitions/generated/defaultSnippets/0/body') as { init: string }).init;
  const choice = /^\$\{1\|([^|]*)\|\}$/.exec(body);
  assert.ok(choice, body);
  sameNames(choice[1]!.split(','), INIT_RULES, 'the snippet\'s choice of "init"');
});

/** The README's text between `start` and the first `end` after it. */
function readmeBetween(start: string, end: string): string {
  const from = readme.indexOf(start);
  assert.ok(from >= 0, `README.md has no ${JSON.stringify(start)}`);
  const to = readme.indexOf(end, from + start.length);
  assert.ok(to >= 0, `README.md has no ${JSON.stringify(end)} after ${JSON.stringify(start)}`);
  return readme.slice(from + start.length, to);
}

/** The words written `word` (in backticks) or "word" (quoted) in a piece of the README. */
const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const quoted = (text: string) => [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);

test('the README\'s list of views names every tab, in the tabs\' order, each by its title', () => {
  const intro = readmeBetween('and draws it beside the editor:\n', '\n\n');
  const names = [...intro.matchAll(/^- \*\*([^*]+)\*\*:/gm)].map((m) => m[1]!);
  assert.equal(names.length, VIEW_NAMES.length, names.join(', '));
  // A bullet may say more than the tab ("Quadrant plot"), never something else.
  VIEW_NAMES.forEach((view, i) => assert.ok(names[i]!.startsWith(VIEW_TITLES[view]), `${names[i]} is not the tab ${VIEW_TITLES[view]}`));
});

test('the README\'s "open" row lists the views, matrix modes and projections the reader takes', () => {
  const row = readmeBetween('| `open` |', '\n');
  /** The words in backticks inside the brackets after `key` in the row. */
  const listed = (key: string) => backticked(new RegExp(`\`${key}\` \\(([^)]*)\\)`).exec(row)?.[1] ?? '');
  sameNames(listed('view'), VIEW_NAMES, 'open.view');
  sameNames(listed('matrix'), MATRIX_MODES, 'open.matrix');
  sameNames(listed('projection'), ROLES, 'open.projection');
});

test('the README names the scale and mask words, the init rules, the learnable roles and the views of an attention file', () => {
  sameNames(quoted(readmeBetween('"scale": "sqrt_dk",', '\n').split('//')[1]!), SCALE_WORDS, 'scale');
  sameNames(quoted(readmeBetween('"mask": "none",', '\n').split('//')[1]!), MASK_KINDS, 'mask');
  sameNames(quoted(readmeBetween('`"init"` is ', '{ "variance"')).filter((w) => !w.includes(' ')), INIT_RULES, 'init');
  sameNames(readmeBetween('// any of ', ' (').split(', '), HEAD_ROLES, 'learn');
  // `attn render FILE --view …` for a saved attention file: every model view but a run's (the next token, the analyses).
  const fileViews = MODEL_VIEW_NAMES.filter((v) => !RUN_VIEW_NAMES.includes(v));
  const lists = [...readme.matchAll(/--view ((?:[a-z-]+\|)+[a-z-]+)/g)];
  assert.ok(lists.length >= 1, 'the README lists the model views after --view');
  for (const m of lists) sameNames(m[1]!.split('|'), fileViews, m[0]);
});
