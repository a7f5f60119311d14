// The commands of the learner's side, the same on the desktop (extension.ts) and on the web
// (web/extension.ts): show, lock, export, Open Example and Apply Learned Weights, over the panels.
import * as vscode from 'vscode';
import { applyLearnedWeights } from './spec-editor/apply-weights.js';
import { openExample } from './examples/open-example.js';
import type { PanelManager } from './panel/panels.js';

export function specCommands(context: vscode.ExtensionContext, panels: PanelManager): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('attentionLens.show', (uri?: unknown) => panels.show(uri)),
    vscode.commands.registerCommand('attentionLens.toggleLock', () => panels.toggleLock()),
    vscode.commands.registerCommand('attentionLens.exportSvg', () => panels.exportPicture('svg')),
    vscode.commands.registerCommand('attentionLens.exportPng', () => panels.exportPicture('png')),
    vscode.commands.registerCommand('attentionLens.openExample', (name?: unknown) =>
      openExample({ extensionUri: context.extensionUri, globalStorageUri: context.globalStorageUri, show: (uri) => panels.show(uri) }, name)),
    vscode.commands.registerCommand('attentionLens.applyLearnedWeights', (uri?: unknown) => applyLearnedWeights(uri instanceof vscode.Uri ? uri : panels.currentSpec(), context.extensionUri)),
  ];
}
