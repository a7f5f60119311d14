// The extension host's entry: wires the spec diagnostics, the hovers, the Attention panels and
// their commands, and returns the small API the integration tests read.
import * as vscode from 'vscode';
import { AnalysisCache } from './analysis-cache.js';
import { SpecDiagnostics } from './diagnostics.js';
import { registerSpecHovers } from './hover.js';
import { registerWeightCompletions } from './completion.js';
import { applyLearnedWeights } from './apply-weights.js';
import { disposeLog, log } from './log.js';
import { PanelManager } from './panels.js';
import { showOnStart } from './start.js';
import type { AttentionLensApi, Timings } from './test-api.js';
import { ModelEditorProvider } from './model-editor.js';

const loadedAt = performance.now();

export function activate(context: vscode.ExtensionContext): AttentionLensApi {
  const timings: Timings = { activateMs: 0 };
  const cache = new AnalysisCache();
  const panels = new PanelManager({ extensionUri: context.extensionUri, cache, timings });
  context.subscriptions.push(
    new SpecDiagnostics(cache),
    registerSpecHovers(cache),
    registerWeightCompletions(),
    panels,
    vscode.commands.registerCommand('attentionLens.show', (uri?: unknown) => panels.show(uri)),
    vscode.commands.registerCommand('attentionLens.toggleLock', () => panels.toggleLock()),
    vscode.commands.registerCommand('attentionLens.exportSvg', () => panels.exportPicture('svg')),
    vscode.commands.registerCommand('attentionLens.exportPng', () => panels.exportPicture('png')),
    vscode.commands.registerCommand('attentionLens.applyLearnedWeights', (uri?: unknown) => applyLearnedWeights(uri instanceof vscode.Uri ? uri : panels.currentSpec())),
    { dispose: disposeLog },
  );
  const models = ModelEditorProvider.register(context);
  timings.activateMs = performance.now() - loadedAt;
  log().info(`activated in ${timings.activateMs.toFixed(1)} ms`);
  void showOnStart((uri) => panels.show(uri));
  return {
    panels: () => panels.infos(),
    timings: () => ({ ...timings }),
    modelEditors: () => models.infos(),
  };
}

export function deactivate(): void {}
