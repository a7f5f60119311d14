// A broken spec gets diagnostics (source "attn") at the exact place, and they go when it is fixed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, attnDiagnostics, closeAllEditors, exampleText, openFreshSpec, rangeOf, replaceOnce, showRange, waitFor, workspaceDir } from './helpers';

const TOKENS = '"tokens": ["i", "love", "apple", "watch"]';

async function errorsOf(doc: vscode.TextDocument): Promise<vscode.Diagnostic[]> {
  return waitFor(`attn diagnostics on ${path.basename(doc.uri.fsPath)}`, () => {
    const found = attnDiagnostics(doc.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    return found.length ? found : undefined;
  });
}

suite('Diagnostics', () => {
  suiteSetup(async () => { await api(); await closeAllEditors(); });
  teardown(closeAllEditors);

  test('the example specs have no problems', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'clean');
    // Break another file and wait for its diagnostics: by then the clean one has surely been checked too.
    const broken = await openFreshSpec(exampleText('apple-watch-lens.attn.json').replace(TOKENS, TOKENS.replace('"watch"', '"wtch"')), 'probe', vscode.ViewColumn.Two);
    await errorsOf(broken.document);
    assert.deepEqual(attnDiagnostics(editor.document.uri).map((d) => d.message), []);
  });

  test('an unknown token is marked on the token itself, and the mark clears when it is fixed', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json').replace(TOKENS, TOKENS.replace('"watch"', '"wtch"')), 'unknown-token');
    const doc = editor.document;
    const errors = await errorsOf(doc);
    assert.equal(errors.length, 1, `one error, got ${errors.map((d) => d.message).join(' | ')}`);
    const [d] = errors;
    assert.match(d.message, /unknown token "wtch"/);
    const expected = rangeOf(doc, '"wtch"');
    assert.ok(d.range.isEqual(expected), `range ${showRange(d.range)}, expected ${showRange(expected)} (the token with its quotes)`);

    await replaceOnce(editor, '"wtch"', '"watch"');
    await waitFor('the diagnostics to clear after the fix', () => attnDiagnostics(doc.uri).length === 0, 15_000,
      () => attnDiagnostics(doc.uri).map((x) => x.message));
  });

  test('an embedding of the wrong length is marked on its list', async () => {
    const text = exampleText('apple-watch-lens.attn.json');
    assert.ok(text.includes('"apple":  [2, 0, 2]'), 'the example still has this embedding');
    const editor = await openFreshSpec(text.replace('"apple":  [2, 0, 2]', '"apple":  [2, 0]'), 'short-embedding');
    const errors = await errorsOf(editor.document);
    const d = errors.find((x) => /2 numbers, expected 3/.test(x.message));
    assert.ok(d, `an error saying "2 numbers, expected 3"; got ${errors.map((x) => x.message).join(' | ')}`);
    const expected = rangeOf(editor.document, '[2, 0]', '"apple"');
    assert.ok(d.range.isEqual(expected), `range ${showRange(d.range)}, expected ${showRange(expected)}`);

    await replaceOnce(editor, '[2, 0]', '[2, 0, 2]');
    await waitFor('the diagnostics to clear after the fix', () => attnDiagnostics(editor.document.uri).length === 0, 15_000,
      () => attnDiagnostics(editor.document.uri).map((x) => x.message));
  });

  test('a JSON syntax error is reported, and several problems are reported at once', async () => {
    const text = exampleText('apple-watch-lens.attn.json')
      .replace(TOKENS, TOKENS.replace('"watch"', '"wtch"'))
      .replace('"apple":  [2, 0, 2]', '"apple":  [2, 0, 2, 9]');
    const editor = await openFreshSpec(text, 'two-problems');
    const errors = await errorsOf(editor.document);
    assert.ok(errors.length >= 1);
    assert.ok(errors.some((d) => d.range.isEqual(rangeOf(editor.document, '[2, 0, 2, 9]', '"apple"'))),
      `the long embedding is marked; got ${errors.map((d) => `${showRange(d.range)} ${d.message}`).join(' | ')}`);

    // A missing comma: one error where "inputs" starts, from VS Code's JSON service (ours yields to it
    // in the editor) or from ours where that service is off; never one of each.
    const syntax = await openFreshSpec('{ "embeddings": { "a": [1, 2] } "inputs": [] }', 'syntax');
    const at = rangeOf(syntax.document, '"inputs"').start;
    const syntaxErrors = await waitFor('a syntax error where the comma is missing', () => {
      const found = vscode.languages.getDiagnostics(syntax.document.uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error && d.range.start.isEqual(at));
      return found.length ? found : undefined;
    });
    // The other source, if both reported it, would have answered by the time our analysis of a marker spec is in.
    await errorsOf((await openFreshSpec('{ "inputs": 3 }', 'syntax-marker', vscode.ViewColumn.Two)).document);
    const all = vscode.languages.getDiagnostics(syntax.document.uri).filter((d) => d.range.start.isEqual(at));
    assert.equal(all.length, 1, `one error at 0:${at.character}; got ${all.map((d) => `${d.source} ${showRange(d.range)} ${d.message}`).join(' | ')}`);
    assert.equal(syntaxErrors.length, 1);
  });

  test('plain JSON files are left alone', async () => {
    const plain = path.join(workspaceDir(), 'not-a-spec.json');
    fs.writeFileSync(plain, '{ "tokens": ["wtch"] }');
    const doc = await vscode.workspace.openTextDocument(plain);
    await vscode.window.showTextDocument(doc);
    const broken = await openFreshSpec('{ "inputs": 3 }', 'marker', vscode.ViewColumn.Two);
    await errorsOf(broken.document);
    assert.deepEqual(attnDiagnostics(doc.uri), []);
  });
});
