// Toggle Panel Lock keeps a panel on its spec while other specs become active; Export SVG / PNG
// asks the real webview for its picture and writes <spec>.<view>.svg / .png next to the spec (the file
// its save dialog proposes, taken through the test seam's answerSaveDialogs).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, exampleText, openFreshSpec, panelFor, panelTabs, waitFor, workspaceDir, type PanelInfo, type TestApi } from './helpers';

function only(a: TestApi): PanelInfo {
  const panels = a.panels();
  assert.equal(panels.length, 1, `one panel: ${JSON.stringify(panels)}`);
  return panels[0];
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

suite('Lock and export', () => {
  let a: TestApi;
  const made: string[] = [];
  // Export asks where to write in a save dialog that the tests cannot press: the test seam takes the file it proposes.
  suiteSetup(async () => { a = await api(); a.answerSaveDialogs('default'); await closeAllEditors(); });
  suiteTeardown(() => a.answerSaveDialogs('ask'));
  teardown(async () => {
    await closeAllEditors();
    for (const f of made.splice(0)) fs.rmSync(f, { force: true });
  });

  test('an unlocked panel follows the active spec; a locked one stays, and unlocking catches up', async () => {
    const ws = workspaceDir();
    const [apple, raw, mouse] = await Promise.all(['apple-watch-lens', 'apple-watch-raw', 'mouse-two-contexts']
      .map((n) => vscode.workspace.openTextDocument(path.join(ws, `${n}.attn.json`))));
    await vscode.window.showTextDocument(apple, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('attentionLens.show');
    await panelFor(a, apple, 'ready');
    assert.equal(only(a).locked, false);

    // Unlocked: another spec in the editor takes the panel with it.
    await vscode.window.showTextDocument(raw, vscode.ViewColumn.One);
    await panelFor(a, raw, 'ready');
    assert.equal(only(a).documentUri, raw.uri.toString());

    await vscode.commands.executeCommand('attentionLens.toggleLock');
    await waitFor('the panel to report locked', () => only(a).locked === true, 5_000, () => a.panels());
    const tab = await waitFor('the tab title to say [Locked]', () => panelTabs().find((t) => t.label.startsWith('[Locked]')), 5_000,
      () => panelTabs().map((t) => t.label));
    assert.match(tab.label, /apple-watch-raw\.attn\.json/);

    // Locked: the same switch that moved it a moment ago leaves it alone.
    await vscode.window.showTextDocument(mouse, vscode.ViewColumn.One);
    await sleep(1_000); // the unlocked switch above took well under this
    const stayed = only(a);
    assert.equal(stayed.documentUri, raw.uri.toString(), 'the locked panel still shows apple-watch-raw');
    assert.equal(stayed.state, 'ready');

    // Unlocking picks up the active spec at once, as the Markdown preview does.
    await vscode.commands.executeCommand('attentionLens.toggleLock');
    await panelFor(a, mouse, 'ready');
    assert.equal(only(a).locked, false);
    assert.ok(!panelTabs().some((t) => t.label.startsWith('[Locked]')), 'the [Locked] title is gone');
  });

  test('Show Attention for another spec while the panel is locked opens a second panel', async () => {
    const ws = workspaceDir();
    const apple = await vscode.workspace.openTextDocument(path.join(ws, 'apple-watch-lens.attn.json'));
    const mouse = await vscode.workspace.openTextDocument(path.join(ws, 'mouse-two-contexts.attn.json'));
    await vscode.window.showTextDocument(apple, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('attentionLens.show');
    await panelFor(a, apple, 'ready');
    await vscode.commands.executeCommand('attentionLens.toggleLock');
    await waitFor('locked', () => only(a).locked === true, 5_000);

    await vscode.commands.executeCommand('attentionLens.show', mouse.uri);
    await panelFor(a, mouse, 'ready');
    const panels = a.panels();
    assert.equal(panels.length, 2, JSON.stringify(panels));
    const locked = panels.find((p) => p.documentUri === apple.uri.toString());
    assert.ok(locked?.locked, `the locked panel stays on apple-watch-lens: ${JSON.stringify(panels)}`);
    assert.equal(panelTabs().length, 2);
  });

  for (const format of ['svg', 'png'] as const) {
    test(`Export ${format.toUpperCase()} writes <spec>.<view>.${format} next to the spec`, async () => {
      const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), `export-${format}`);
      const doc = editor.document;
      await vscode.commands.executeCommand('attentionLens.show');
      const panel = await panelFor(a, doc, 'ready');
      const stem = path.basename(doc.uri.fsPath, '.attn.json');
      const out = path.join(path.dirname(doc.uri.fsPath), `${stem}.${panel.view}.${format}`);
      made.push(out, doc.uri.fsPath);
      assert.ok(!fs.existsSync(out), `${path.basename(out)} is not there before the export`);

      await vscode.commands.executeCommand(format === 'svg' ? 'attentionLens.exportSvg' : 'attentionLens.exportPng');
      // Complete, not merely started: an SVG ends with </svg>, a PNG with its IEND chunk.
      const complete = (b: Buffer) => format === 'svg' ? /<\/svg>\s*$/.test(b.toString('utf8')) : b.subarray(-8, -4).toString('latin1') === 'IEND';
      await waitFor(`${path.basename(out)} to be written whole`, () => fs.existsSync(out) && complete(fs.readFileSync(out)), 20_000,
        () => fs.readdirSync(path.dirname(out)).filter((f) => f.startsWith(stem)));
      const bytes = fs.readFileSync(out);
      if (format === 'svg') {
        const svg = bytes.toString('utf8');
        assert.match(svg.slice(0, 300), /^(<\?xml[^>]*>\s*)?<svg[\s>]/, `starts as an SVG: ${svg.slice(0, 120)}`);
        assert.match(svg, /xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, 'standalone: carries its namespace');
        for (const token of ['love', 'apple', 'watch']) assert.ok(svg.includes(`>${token}<`), `the token "${token}" is drawn in the SVG`);
        assert.doesNotMatch(svg, /var\(--vscode/, 'theme variables are resolved: the file looks the same outside VS Code');
      } else {
        assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
        const width = bytes.readUInt32BE(16), height = bytes.readUInt32BE(20);
        assert.ok(width >= 200 && height >= 100, `a picture of some size, got ${width}×${height}`);
        assert.ok(bytes.length > 2_000, `more than a blank image: ${bytes.length} bytes`);
      }
      const others = fs.readdirSync(path.dirname(out)).filter((f) => f.startsWith(`${stem}.`) && f !== path.basename(out) && !f.endsWith('.attn.json'));
      assert.deepEqual(others, [], 'only the one file is written');
    });
  }
});
