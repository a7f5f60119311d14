// No history in comments or test names (scripts/lint/history-notes.mjs): the finder catches an issue,
// round or defect number and the session a thing was found in where they are written, and nothing in
// the code's strings; then every source of src, webview, test, scripts and python is held to it, so a
// note naming an issue and its defect fails here and its story goes in the commit instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../../support/paths.js';
// @ts-expect-error: a plain .mjs file of ours, without types.
import { historyNotes } from '../../../../scripts/lint/history-notes.mjs';

type Note = { line: number; note: string };
const notes = (text: string, file = 'x.ts') => (historyNotes(text, file) as Note[]).map((n) => n.line);

test('the finder catches history in a comment, a block comment, a test name and a template test name', () => {
  const text = [
    '// issue 19: the arcs overlapped',
    'const x = 1; // as round 2 asked',
    '/**',
    ' * Defect 4 of the review.',
    ' */',
    "test('issue 20, defect 3: the sum reads back', () => {});",
    'it(`found this session`, () => {});',
    "describe.todo('defects 1-2', () => {});",
  ].join('\n');
  assert.deepEqual(notes(text), [1, 2, 3, 6, 7, 8]);
});

test('the finder leaves code alone: strings, regular expressions, words that only look alike', () => {
  const text = [
    "const message = 'issue 20 is not a comment';",
    'const re = /round 3 \\/\\/ issue 4/;',
    '// the palette is 12 bytes around 3 a colour; an issue with no number; rounds the number',
    "test('rounds 0.5 up and reads the issue of a run', () => assert.equal(f('defect 2'), 1));",
  ].join('\n');
  assert.deepEqual(notes(text), []);
});

test('the finder reads Python\'s comments, docstrings and test names, not its strings', () => {
  const text = [
    'def f():',
    '    """Saves attention (issue 12)."""',
    "    return 'issue 12'  # round 3",
    'def test_issue_7_tokens():',
    '    pass',
  ].join('\n');
  assert.deepEqual(notes(text, 'x.py'), [2, 3, 4]);
});

/** Every source file below `dir`: TypeScript, JavaScript and Python. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === '__pycache__' || e.name.startsWith('.') ? [] : sources(path);
    return /\.(?:ts|mts|mjs|cjs|js|py)$/.test(e.name) ? [path] : [];
  });
}

test('no comment or test name in src, webview, test, scripts or python carries an issue, round or defect number', () => {
  const files = ['src', 'webview', 'test', 'scripts', 'python'].flatMap((dir) => sources(join(ROOT, dir)));
  assert.ok(files.length > 300, `${files.length} files read`);
  const found = files.flatMap((file) => (historyNotes(readFileSync(file, 'utf8'), file) as Note[])
    .map((n) => `${relative(ROOT, file)}:${n.line}: ${n.note.split('\n').find((l) => /\d|session/i.test(l))?.trim().slice(0, 100)}`));
  assert.deepEqual(found, []);
});
