// The command Apply Learned Weights (src/host/spec-editor/apply-weights.ts) in the vscode stand-in:
// it trains the spec's "train" section and writes the learnt matrices into the open document as one
// edit (one undo step), the document's new version reading back with the trained numbers; without a
// spec, without a "train" section, with errors, or when the editor refuses the edit, nothing changes
// and the user is told why.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { applyLearnedWeights, UNDO, withEdits } from '../../../../src/host/spec-editor/apply-weights.js';
import { readSpec } from '../../../../src/core/spec/read.js';
import { train } from '../../../../src/core/train/descent.js';
import { asVscode, standIn, Uri, window, workspace } from '../../../support/vscode/index.js';
import { examplesInTemp, until } from '../../../support/host-fixture.js';
import { ROOT } from '../../../support/paths.js';

beforeEach(() => standIn.reset());

function close(a: Float64Array, b: Float64Array): void {
  assert.equal(a.length, b.length);
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) <= 5e-6 * Math.max(1, Math.abs(b[i])), `${v} vs ${b[i]}`));
}

test('learn-apple-watch: W_Q and W_K learnt in 200 steps are written into the open spec as one edit', async () => {
  const { uris: [uri] } = examplesInTemp('learn-apple-watch.attn.json');
  const onDisk = readFileSync(uri.fsPath, 'utf8');
  const document = await workspace.openTextDocument(uri);
  let changes = 0;
  const listening = workspace.onDidChangeTextDocument((e) => { if (e.document === document) changes++; });
  assert.equal(await applyLearnedWeights(asVscode(uri)), true);
  listening.dispose();
  assert.equal(standIn.documents.state.applied.length, 1, 'one WorkspaceEdit: one undo step');
  assert.equal(changes, 1);
  assert.equal(document.version, 2);
  const spec = readSpec(onDisk).spec!;
  const run = train(spec, spec.train!);
  const after = readSpec(document.getText());
  assert.deepEqual(after.problems, []);
  close(after.spec!.heads[0].wq.matrix.data, run.weights.wq.data);
  close(after.spec!.heads[0].wk.matrix.data, run.weights.wk.data);
  assert.equal(after.spec!.heads[0].wv.identity, true, 'W_V was not learnt and stays');
  assert.equal(readFileSync(uri.fsPath, 'utf8'), onDisk, 'the document is edited, not saved');
  const [message] = standIn.windows.state.messages;
  assert.equal(message.severity, 'information');
  assert.match(message.message, /wrote the learnt W_Q, W_K of head "learnt lens" \(200 steps, loss [\d.e+-]+ → [\d.e+-]+\)/);
  const [first, last] = [run.loss[0], run.loss[run.loss.length - 1]];
  assert.ok(message.message.includes(`${first.toPrecision(3)} → ${last.toPrecision(3)}`));
  assert.ok(last < first, 'training lowered the loss');
});

test('no spec, a spec without "train", or one with errors: nothing is changed, and the user is told', async () => {
  assert.equal(await applyLearnedWeights(undefined), false);
  const { uris: [plain, learn] } = examplesInTemp('apple-watch-lens.attn.json', 'learn-apple-watch.attn.json');
  assert.equal(await applyLearnedWeights(asVscode(plain)), false);
  const document = await workspace.openTextDocument(learn);
  standIn.documents.type(document, document.getText().replace('"apple", "watch"]', '"pear", "watch"]'));
  const broken = document.getText();
  assert.equal(await applyLearnedWeights(asVscode(learn)), false);
  assert.equal(document.getText(), broken);
  assert.deepEqual(standIn.documents.state.applied, []);
  const said = standIn.windows.state.messages;
  assert.deepEqual(said.map((m) => m.severity), ['information', 'information', 'warning']);
  assert.match(said[0].message, /open a spec with a "train" section/);
  assert.match(said[1].message, /this spec has no "train" section/);
  assert.match(said[2].message, /the spec has problems \(see the Problems panel\): fix them before training/);
});

test('an edit the editor refuses (a read-only file) leaves the spec as it was, writes the learnt spec into a copy and says so', async () => {
  const { folder, uris: [uri] } = examplesInTemp('learn-apple-watch.attn.json');
  const document = await workspace.openTextDocument(uri);
  const before = document.getText();
  standIn.documents.state.refuseEdits = true;
  assert.equal(await applyLearnedWeights(asVscode(uri)), true);
  assert.equal(document.getText(), before);
  assert.equal(document.version, 1);
  assert.deepEqual(readdirSync(folder).sort(), ['learn-apple-watch.attn.json', 'learn-apple-watch.learned.attn.json']);
  assert.deepEqual(standIn.windows.state.messages.map((m) => m.message.replace(/loss [^)]*/, 'loss …')), [
    `Attention Lens: learn-apple-watch.attn.json cannot be edited (is the file read-only?): the learnt W_Q, W_K of head "learnt lens" (200 steps, loss …) went into ${join(folder, 'learn-apple-watch.learned.attn.json')}.`]);
});

test("one of the extension's examples is never edited: the learnt spec goes into the workspace as <stem>.learned.attn.json, opened beside it", async () => {
  const { folder: ws } = examplesInTemp();
  standIn.documents.setFolders(Uri.file(ws));
  const example = Uri.file(join(ROOT, 'examples', 'learn-apple-watch.attn.json'));
  const document = await workspace.openTextDocument(example);
  const onDisk = readFileSync(example.fsPath, 'utf8');
  assert.equal(await applyLearnedWeights(asVscode(example), asVscode(Uri.file(ROOT))), true);
  assert.equal(await applyLearnedWeights(asVscode(example), asVscode(Uri.file(ROOT))), true);
  assert.equal(document.getText(), onDisk, 'the example document is not edited');
  assert.equal(readFileSync(example.fsPath, 'utf8'), onDisk);
  assert.deepEqual(standIn.documents.state.applied, []);
  assert.deepEqual(readdirSync(ws).sort(), ['learn-apple-watch.learned-2.attn.json', 'learn-apple-watch.learned.attn.json'], 'a second copy does not replace the first');
  const copy = readSpec(readFileSync(join(ws, 'learn-apple-watch.learned.attn.json'), 'utf8'));
  assert.deepEqual(copy.problems, []);
  const spec = readSpec(onDisk).spec!;
  close(copy.spec!.heads[0].wq.matrix.data, train(spec, spec.train!).weights.wq.data);
  assert.equal(window.activeTextEditor?.document.uri.fsPath, join(ws, 'learn-apple-watch.learned-2.attn.json'), 'the copy is open');
  assert.match(standIn.windows.state.messages[0].message, /^Attention Lens: learn-apple-watch\.attn\.json is one of the extension's examples, so it stays as it is: the learnt W_Q, W_K .* went into learn-apple-watch\.learned\.attn\.json\.$/);
});

test('elsewhere the message offers Undo, which puts the previous matrices back; after another edit it says to use Edit → Undo', async () => {
  const { uris: [uri] } = examplesInTemp('learn-apple-watch.attn.json');
  const document = await workspace.openTextDocument(uri);
  const before = document.getText();
  let press: (() => void) | undefined;
  const pressed = new Promise<void>((resolve) => { press = resolve; });
  standIn.windows.state.press = (m) => { press?.(); return m.items?.includes(UNDO) ? UNDO : undefined; };
  assert.equal(await applyLearnedWeights(asVscode(uri)), true);
  await pressed;
  await until('the old text back', () => document.getText() === before);
  assert.equal(standIn.documents.state.applied.length, 2, 'the edit, then its undo');
  assert.deepEqual(standIn.windows.state.messages[0].items, [UNDO]);
  assert.equal(standIn.windows.state.messages[1].message, 'Attention Lens: the previous matrices are back.');
  // Undo pressed after the user typed: the text is theirs, so it is left alone.
  standIn.windows.state.press = (m) => {
    if (m.items?.includes(UNDO)) standIn.documents.type(document, document.getText().replace('"rate": 0.1', '"rate": 0.2'));
    return m.items?.includes(UNDO) ? UNDO : undefined;
  };
  assert.equal(await applyLearnedWeights(asVscode(uri)), true);
  await until('the warning', () => standIn.windows.state.messages.some((m) => m.severity === 'warning'));
  assert.match(document.getText(), /"rate": 0\.2/);
});

test('withEdits makes edits in any order', () => {
  assert.equal(withEdits('abcdef', [{ offset: 4, length: 1, text: 'E' }, { offset: 0, length: 2, text: 'AB!' }]), 'AB!cdEf');
});
