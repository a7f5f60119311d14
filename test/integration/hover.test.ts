// Hovers in a spec's editor, asked of VS Code itself (vscode.executeHoverProvider), so they go
// through the real hover registration: over a token, whom it attends to most per head; over a
// weight matrix, its shape and role; nothing of ours over other JSON.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, exampleText, openFreshSpec, rangeOf, replaceOnce, showRange, waitFor, workspaceDir } from './helpers';

const OURS = /→|W_Q|W_K|W_V|W_O|token \d+ of \d+/;

function texts(hovers: vscode.Hover[] | undefined): string[] {
  return (hovers ?? []).map((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n'));
}

async function hoversAt(doc: vscode.TextDocument, offset: number): Promise<vscode.Hover[]> {
  return (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, doc.positionAt(offset))) ?? [];
}

/** Our hover at `offset` (the JSON language server may add its own): waits for one whose text matches `expect`. */
async function ourHover(doc: vscode.TextDocument, offset: number, expect: RegExp): Promise<{ hover: vscode.Hover; text: string }> {
  let last: string[] = [];
  return waitFor(`a hover matching ${expect} at ${showRange(new vscode.Range(doc.positionAt(offset), doc.positionAt(offset)))}`, async () => {
    const hovers = await hoversAt(doc, offset);
    last = texts(hovers);
    const i = last.findIndex((t) => expect.test(t));
    return i >= 0 ? { hover: hovers[i], text: last[i] } : undefined;
  }, 10_000, () => last);
}

suite('Hovers', () => {
  suiteSetup(async () => { await api(); await closeAllEditors(); });
  teardown(closeAllEditors);

  test('over a token: its strongest weight in each head, and the hover covers the token', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'hover-token');
    const doc = editor.document;
    const at = doc.getText().indexOf('"watch"]'); // the 4th token of the first input
    const { hover, text } = await ourHover(doc, at + 2, /watch → /);
    assert.match(text, /"watch": token 4 of 4 in "I love Apple watch"/, text);
    assert.match(text, /watch → apple 1\.00 \(tech lens\)/, text);
    assert.match(text, /watch → watch \d\.\d\d \(raw\)/, `the raw head: watch scores itself 10, apple and love 2: ${text}`);
    const expected = rangeOf(doc, '"watch"]');
    assert.ok(hover.range?.isEqual(new vscode.Range(expected.start, expected.end.translate(0, -1))),
      `the hover's range ${hover.range && showRange(hover.range)} is the token "watch" with its quotes`);
  });

  test('a token hover follows edits: after apple → orange in the sentence, watch attends to orange', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'hover-edit');
    const doc = editor.document;
    await ourHover(doc, doc.getText().indexOf('"watch"]') + 2, /watch → apple 1\.00 \(tech lens\)/);
    // q(watch) = [10, 6]; k(orange) = [0, 0, 3]·W_K = [12, 6]: 156 against 64 for watch itself.
    await replaceOnce(editor, '"apple", "watch"]', '"orange", "watch"]');
    const { text } = await ourHover(doc, doc.getText().indexOf('"watch"]') + 2, /watch → orange/);
    assert.match(text, /watch → orange 1\.00 \(tech lens\)/, text);
    assert.doesNotMatch(text, /→ apple/, text);
  });

  test('over a weight matrix: W_Q\'s shape and role; over one of its numbers: the row and column', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'hover-matrix');
    const doc = editor.document;
    const text = doc.getText();
    const wqTech = text.indexOf('"wq": [[4, 3]');
    const { text: shape } = await ourHover(doc, wqTech + 2, /W_Q/);
    assert.match(shape, /W_Q of head "tech lens"/, shape);
    assert.match(shape, /d_model × d_k = 3 × 2/, shape);
    assert.match(shape, /query/, shape);
    assert.match(shape, /6 learnable numbers/, shape);

    const four = text.indexOf('[4, 2]', text.indexOf('"wk": [[1, 1]')) + 1; // W_K row 3, column 1 of "tech lens"
    const { text: cell } = await ourHover(doc, four, /row 3/);
    assert.match(cell, /W_K of head "tech lens"/, cell);
    assert.match(cell, /row 3 \(is_fruit\) → key 1: 4/, cell);

    const identity = text.indexOf('"identity"'); // "raw" head's W_Q
    const { text: id } = await ourHover(doc, identity + 2, /identity/);
    assert.match(id, /W_Q of head "raw"/, id);
    assert.match(id, /identity, d_model × d_model = 3 × 3/, id);
  });

  test('no hover of ours over other fields of a spec, nor in a plain JSON file', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'hover-none');
    const doc = editor.document;
    // First prove hovers work in this document, so the empty answers below mean something.
    await ourHover(doc, doc.getText().indexOf('"watch"]') + 2, /watch → /);
    for (const needle of ['"title"', '"is_tech"', '"scale"']) {
      const found = texts(await hoversAt(doc, doc.getText().indexOf(needle) + 2)).filter((t) => OURS.test(t));
      assert.deepEqual(found, [], `no attention hover over ${needle}`);
    }
    const plain = path.join(workspaceDir(), `hover-plain-${process.pid}.json`);
    fs.writeFileSync(plain, exampleText('apple-watch-lens.attn.json'));
    try {
      const plainDoc = await vscode.workspace.openTextDocument(plain);
      await vscode.window.showTextDocument(plainDoc);
      const found = texts(await hoversAt(plainDoc, plainDoc.getText().indexOf('"watch"]') + 2)).filter((t) => OURS.test(t));
      assert.deepEqual(found, [], 'a plain .json file with the same text gets no attention hover');
    } finally {
      await closeAllEditors();
      fs.rmSync(plain, { force: true });
    }
  });
});
