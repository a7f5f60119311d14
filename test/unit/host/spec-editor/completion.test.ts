// Completions in a spec's editor (src/host/spec-editor/completion.ts), asked as the editor asks them
// through the vscode stand-in: at a head's "wq" the matrices of the spec's d_model rows (3 for the
// apple-watch features), indented like the line, in their order, then the generated (Xavier) weight;
// nothing in an empty file (the starter spec there is the JSON schema's defaultSnippets, offered by
// VS Code's JSON support, not by this provider); nothing in a JSON file that is not a spec.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { registerWeightCompletions } from '../../../../src/host/spec-editor/completion.js';
import { CompletionItemKind, Position, standIn, Uri, type CompletionItem } from '../../../support/vscode/index.js';
import { exampleText } from '../../../support/specs.js';

beforeEach(() => standIn.reset());

/** The apple-watch lens with head "tech lens"'s W_Q being typed: `"wq": ` and the cursor after it. */
const TYPING = exampleText('apple-watch-lens.attn.json').replace('"wq": [[4, 3], [2, 1], [0, 1]],', '"wq": ');
const CURSOR = TYPING.indexOf('"wq": ', TYPING.indexOf('"name": "tech lens"')) + '"wq": '.length;

test('at "wq" of a head it offers matrices of d_model = 3 rows, indented like the line, then a generated weight', async () => {
  const registration = registerWeightCompletions();
  const document = standIn.documents.open(Uri.parse('untitled:lens.attn.json'), TYPING);
  const items = await standIn.editorFeatures.completions(document, document.positionAt(CURSOR)) as CompletionItem[];
  assert.deepEqual(items.map((i) => i.label), [
    '3 × 2 matrix (d_model × 2), small seeded numbers',
    '3 × 3 matrix (d_model × 3), small seeded numbers',
    'generated 3 × 2 weights (Xavier, seeded)',
  ]);
  assert.deepEqual(items.map((i) => i.sortText), ['00', '01', '02'], 'in the order given, before other providers\' items');
  assert.ok(items.every((i) => i.kind === CompletionItemKind.Value));
  const indent = /^\s*/.exec(document.lineAt(document.positionAt(CURSOR).line).text)![0];
  const rows = items[0].insertText!.split('\n');
  assert.equal(rows.length, 5, '[, three rows, ]');
  assert.ok(rows.slice(1, 4).every((r) => r.startsWith(`${indent}  [`)), 'each row indented two past the line');
  assert.equal(rows[4], `${indent}]`);
  assert.equal(JSON.parse(items[0].insertText!).length, 3);
  assert.match(items[0].detail!, /3 rows, one per feature \(is_tech, is_watch, is_fruit\)/);
  assert.deepEqual(JSON.parse(items[2].insertText!), { init: 'xavier', shape: [3, 2], seed: 11 });
  registration.dispose();
});

test('nothing from this provider in an empty spec, at a key, or in a JSON file that is not a spec', async () => {
  const registration = registerWeightCompletions();
  const empty = standIn.documents.open(Uri.parse('untitled:new.attn.json'), '');
  assert.deepEqual(await standIn.editorFeatures.completions(empty, new Position(0, 0)), []);
  const spec = standIn.documents.open(Uri.parse('untitled:lens.attn.json'), TYPING);
  assert.deepEqual(await standIn.editorFeatures.completions(spec, spec.positionAt(CURSOR - '": '.length)), [], 'inside the key "wq"');
  const other = standIn.documents.open(Uri.parse('untitled:lens.json'), TYPING);
  assert.deepEqual(await standIn.editorFeatures.completions(other, other.positionAt(CURSOR)), []);
  registration.dispose();
});
