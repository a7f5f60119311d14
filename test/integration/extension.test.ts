// The extension loads in a real VS Code: it activates for a spec and registers its commands.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, extension, recordTiming, waitFor, workspaceDir } from './helpers';

suite('Extension', () => {
  test('is present in this VS Code as attention-lens.attention-lens', () => {
    const ext = extension();
    assert.equal(ext.packageJSON.name, 'attention-lens');
    assert.equal(ext.packageJSON.publisher, 'attention-lens');
  });

  test('activates when a spec is opened and returns its test API', async () => {
    const doc = await vscode.workspace.openTextDocument(path.join(workspaceDir(), 'apple-watch-lens.attn.json'));
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.languageId, 'json', '*.attn.json files are JSON');
    await waitFor('the extension to activate', () => extension().isActive, 20_000);
    const timings = (await api()).timings();
    assert.ok(Number.isFinite(timings.activateMs) && timings.activateMs >= 0,
      `timings().activateMs is a duration, got ${timings.activateMs}`);
    recordTiming('activateMs', timings.activateMs);
  });

  test('registers every command it contributes, attentionLens.show among them', async () => {
    await api();
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed: string[] = extension().packageJSON.contributes.commands.map((c: { command: string }) => c.command);
    assert.ok(contributed.includes('attentionLens.show'));
    for (const command of contributed) assert.ok(registered.has(command), `command ${command} is registered`);
  });
});
