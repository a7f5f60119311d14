// Problems of open specs as editor diagnostics (src/host/spec-editor/diagnostics.ts) in the vscode
// stand-in: a broken spec gets its problem at the problem's range, as an error from "attn"; a fix clears
// it once typing has paused (DIAGNOSTIC_DELAY_MS); closing the spec clears it; a document that is not a
// spec is never analysed; specs already open when the extension starts are checked at once.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { DIAGNOSTIC_DELAY_MS, SpecDiagnostics } from '../../../../src/host/spec-editor/diagnostics.js';
import { DiagnosticSeverity, standIn, Uri } from '../../../support/vscode/index.js';
import { countingCache, settle, until } from '../../../support/host-fixture.js';
import { exampleText } from '../../../support/specs.js';

beforeEach(() => standIn.reset());

const GOOD = exampleText('apple-watch-lens.attn.json');
const BROKEN = GOOD.replace('"love", "apple"', '"love", "pear"');
const URI = Uri.parse('untitled:Untitled-1.attn.json');

const collection = () => {
  const [c] = standIn.editorFeatures.state.collections;
  assert.equal(c.name, 'attn');
  return c;
};

test('a broken spec opened gets an error from "attn" at the problem\'s range, its path before the message', async () => {
  const { cache } = countingCache();
  const diagnostics = new SpecDiagnostics(cache);
  const document = standIn.documents.open(URI, BROKEN);
  await until('the diagnostics', () => collection().has(URI));
  const [d, ...more] = collection().get(URI)!;
  assert.equal(more.length, 0);
  assert.equal(d.severity, DiagnosticSeverity.Error);
  assert.equal(d.source, 'attn');
  assert.match(d.message, /^inputs\[0\]\.tokens\[2\]: unknown token "pear"/);
  assert.equal(document.getText(d.range), '"pear"');
  const offset = BROKEN.indexOf('"pear"');
  assert.deepEqual([d.range.start.line, d.range.start.character], [BROKEN.slice(0, offset).split('\n').length - 1, offset - BROKEN.lastIndexOf('\n', offset) - 1]);
  diagnostics.dispose();
});

test('a fix clears the problem once typing has paused, not before', async () => {
  const { cache } = countingCache();
  const diagnostics = new SpecDiagnostics(cache);
  const document = standIn.documents.open(URI, BROKEN);
  await until('the diagnostics', () => collection().has(URI));
  const typed = performance.now();
  standIn.documents.type(document, GOOD);
  await settle(DIAGNOSTIC_DELAY_MS / 2);
  assert.equal(collection().has(URI), true, 'still shown while the user may be typing');
  await until('the diagnostics cleared', () => !collection().has(URI));
  assert.ok(performance.now() - typed >= DIAGNOSTIC_DELAY_MS - 1, 'after the pause');
  diagnostics.dispose();
});

test('closing a spec clears its problems and forgets its analysis; disposing removes the collection', async () => {
  const { cache, analyst } = countingCache();
  const diagnostics = new SpecDiagnostics(cache);
  const document = standIn.documents.open(URI, BROKEN);
  await until('the diagnostics', () => collection().has(URI));
  standIn.documents.close(document);
  assert.equal(collection().has(URI), false);
  // Forgotten: the same text reopened is analysed again.
  standIn.documents.open(URI, BROKEN);
  await until('the diagnostics again', () => collection().has(URI));
  assert.equal(analyst.reads, 2);
  diagnostics.dispose();
  assert.equal(collection().disposed, true);
});

test('a document that is not a spec is never analysed', async () => {
  const { cache, analyst } = countingCache();
  const diagnostics = new SpecDiagnostics(cache);
  const notes = standIn.documents.open(Uri.parse('untitled:notes.json'), BROKEN);
  standIn.documents.type(notes, '{ "broken": ');
  await settle(DIAGNOSTIC_DELAY_MS + 50);
  assert.equal(analyst.reads, 0);
  assert.equal(collection().has(notes.uri), false);
  diagnostics.dispose();
});

test('specs already open when the diagnostics start are checked at once', async () => {
  const { cache } = countingCache();
  standIn.documents.open(URI, BROKEN);
  const diagnostics = new SpecDiagnostics(cache);
  await until('the diagnostics', () => collection().has(URI), DIAGNOSTIC_DELAY_MS);
  diagnostics.dispose();
});

const MISSING_COMMA = '{ "embeddings": { "a": [1, 2] } "inputs": [] }';

test('a missing comma is one diagnostic: VS Code\'s JSON service reports it, so ours yields; without that service ours stays', async () => {
  const { cache, analyst } = countingCache();
  standIn.extensions.add('vscode.json-language-features');
  const withJson = new SpecDiagnostics(cache);
  const document = standIn.documents.open(URI, MISSING_COMMA);
  await until('the analysis', () => analyst.reads === 1);
  await settle();
  assert.deepEqual(collection().get(URI) ?? [], [], 'nothing of ours beside the JSON service\'s "Expected comma"');
  withJson.dispose();
  standIn.documents.close(document);

  for (const [why, setUp] of [
    ['json.validate.enable is off', () => standIn.documents.state.settings.set('json.validate.enable', false)],
    ['the JSON extension is absent', () => standIn.extensions.clear()],
  ] as const) {
    standIn.reset();
    standIn.extensions.add('vscode.json-language-features');
    setUp();
    const ours = new SpecDiagnostics(countingCache().cache);
    standIn.documents.open(URI, MISSING_COMMA);
    await until('the diagnostics', () => collection().has(URI));
    const [d, ...more] = collection().get(URI)!;
    assert.equal(more.length, 0, why);
    assert.match(d.message, /^invalid JSON: /, why);
    assert.equal(d.range.start.character, MISSING_COMMA.indexOf('"inputs"'), `${why}: where the comma is missing`);
    ours.dispose();
  }
});

test('only syntax errors yield to the JSON service: a spec\'s own problems stay', async () => {
  standIn.extensions.add('vscode.json-language-features');
  const diagnostics = new SpecDiagnostics(countingCache().cache);
  standIn.documents.open(URI, BROKEN);
  await until('the diagnostics', () => collection().has(URI));
  assert.match(collection().get(URI)![0].message, /unknown token "pear"/);
  diagnostics.dispose();
});
