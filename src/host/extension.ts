// The extension host's entry: wires the spec diagnostics, the hovers, the Attention panels and
// their commands, and returns the small API the integration tests read. What the tests may change
// (how dialogs are answered) is an object made here and given to its users, never a module's switch.
import * as vscode from 'vscode';
import { AnalysisCache } from './analysis/cache.js';
import { AnalysisRunner } from './analysis/runner.js';
import { StallMonitor } from './stall-monitor.js';
import { SpecDiagnostics } from './spec-editor/diagnostics.js';
import { registerSpecHovers } from './spec-editor/hover.js';
import { registerWeightCompletions } from './spec-editor/completion.js';
import { specCommands } from './spec-commands.js';
import { disposeLog, log } from './log.js';
import { PanelManager } from './panel/panels.js';
import { showOnStart } from './panel/start.js';
import type { AttentionLensApi } from './test-api.js';
import type { Timings } from './panel/info.js';
import { ModelEditorProvider } from './model-editor/editor.js';
import { diskModelFiles } from './model-editor/disk-files.js';
import { InstalledDialogs, proposedDialogs, userDialogs } from './dialogs.js';
import { distScripts, WorkerService } from './workers/service.js';
import { RunSessions } from './checkpoint-run/sessions.js';
import { runModelCommand } from './checkpoint-run/run-model-command.js';
import { desktopRunPlaces } from './checkpoint-run/places/desktop.js';
import { NotebookOutputs } from './notebook/open-output.js';
import { referencedFile } from './panel/reference.js';
import { Analyst } from './analysis/analyst.js';
import { folderFiles } from '../core/files/spec-files.js';

const loadedAt = performance.now();

export function activate(context: vscode.ExtensionContext): AttentionLensApi {
  const timings: Timings = { activateMs: 0 };
  const stalls = new StallMonitor();
  // Every worker thread of the host (analysis, model file scans, model runs) is started by one service, ended with it.
  const workers = new WorkerService(distScripts(__dirname));
  const dialogs = new InstalledDialogs();
  // Specs are read and computed in a worker thread: the host's own thread only posts the result.
  const runner = new AnalysisRunner(workers, (line) => log().warn(line), new Analyst(undefined, undefined, folderFiles));
  const cache = new AnalysisCache(runner);
  const models = ModelEditorProvider.register(context, diskModelFiles(workers));
  // Notebook outputs drawn by our renderer: "Open in Attention Lens" shows their weights in the model views.
  const notebooks = new NotebookOutputs(context.globalStorageUri, context.extensionUri, workers);
  // A spec that names a model's attention file opens the model editor on it, with the spec's tokens.
  // A model spec ({ "model", "text" }) runs the model in a worker and shows its run in the model views.
  const runs = new RunSessions({
    extensionUri: context.extensionUri, globalStorageUri: context.globalStorageUri, cache, workers, dialogs, places: desktopRunPlaces,
    diagnostics: vscode.languages.createDiagnosticCollection('attention-lens-run'),
    showSpec: (uri) => panels.show(uri),
  });
  const panels: PanelManager = new PanelManager({
    extensionUri: context.extensionUri, cache, timings, dialogs, referencedFile,
    openModel: (file, open, show) => models.openReference(file, open, show),
    runModel: (spec, show) => runs.open(spec, show),
  });
  context.subscriptions.push(
    new SpecDiagnostics(cache),
    registerSpecHovers(cache),
    registerWeightCompletions(),
    panels,
    runs,
    vscode.commands.registerCommand('attentionLens.runModel', () => runModelCommand((uri) => runs.open(uri))),
    vscode.commands.registerCommand('attentionLens.saveHeadAsSpec', () => runs.saveHead()),
    notebooks,
    ...specCommands(context, panels),
    { dispose: () => { runner.dispose(); workers.dispose(); stalls.dispose(); } },
    { dispose: disposeLog },
  );
  timings.activateMs = performance.now() - loadedAt;
  log().info(`activated in ${timings.activateMs.toFixed(1)} ms`);
  void showOnStart((uri) => panels.show(uri));
  return {
    panels: () => panels.infos(),
    timings: () => ({ ...timings }),
    modelEditors: () => [...models.infos(), ...runs.infos()],
    showModel: (uri, view, layer, head) => { models.show(uri, view, layer, head); runs.show(uri, view, layer, head); },
    maxStallMs: () => stalls.maxMs(),
    resetStall: () => stalls.reset(),
    answerSaveDialogs: (how) => dialogs.install(how === 'default' ? proposedDialogs : userDialogs),
    notebookOutputs: () => notebooks.infos(),
    notebookOpened: () => notebooks.openedOutputs(),
  };
}

export function deactivate(): void {}
