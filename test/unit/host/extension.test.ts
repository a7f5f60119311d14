// The extension's entry (src/host/extension.ts) in the vscode stand-in: activate() registers every
// command package.json declares (a declared command that nothing registers fails here), they reach
// the panels and Apply Learned Weights, and disposing the context's subscriptions unregisters them all.
import '../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { activate } from '../../../src/host/extension.js';
import { asVscode, commands, extensionContext, standIn } from '../../support/vscode/index.js';
import { examplesInTemp } from '../../support/host-fixture.js';
import { ROOT } from '../../support/paths.js';

beforeEach(() => standIn.reset());

const declared = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } })
  .contributes.commands.map((c) => c.command).sort();

test('activate registers every command package.json declares, and the panel serializer; disposing unregisters them', () => {
  const context = extensionContext(ROOT);
  const api = activate(asVscode<vscode.ExtensionContext>(context));
  assert.deepEqual([...standIn.commands.state.registered.keys()].sort(), declared);
  assert.equal(standIn.windows.state.serializers.has('attentionLens.panel'), true);
  assert.equal(standIn.windows.state.customEditors.has('attentionLens.model'), true);
  assert.deepEqual(api.panels(), []);
  assert.ok(api.timings().activateMs > 0);
  for (const s of context.subscriptions) s.dispose();
  assert.deepEqual([...standIn.commands.state.registered.keys()], []);
  assert.equal(standIn.windows.state.serializers.size, 0);
  assert.equal(standIn.editorFeatures.state.hovers.length + standIn.editorFeatures.state.completions.length, 0);
});

test('the commands reach the panels and Apply Learned Weights', async () => {
  const context = extensionContext(ROOT);
  activate(asVscode<vscode.ExtensionContext>(context));
  await commands.executeCommand('attentionLens.toggleLock');
  const { uris: [plain] } = examplesInTemp('apple-watch-lens.attn.json');
  assert.equal(await commands.executeCommand('attentionLens.applyLearnedWeights', plain), false);
  assert.deepEqual(standIn.windows.state.messages.map((m) => m.message.slice(0, 52)), [
    'Attention Lens: no Attention panel is open.',
    'Attention Lens: this spec has no "train" section: ad',
  ]);
  for (const s of context.subscriptions) s.dispose();
});
