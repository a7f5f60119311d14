// The web extension host's entry (package.json "browser": vscode.dev, github.dev, code-server in a
// browser): the learner's side of the extension, the spec panel with its views, live diagnostics,
// hovers, completions, the walkthrough and Open Example, Apply Learned Weights and export. There is no
// Node here: specs are computed in a Web Worker when the runtime gives one, else on the host's thread
// between yields (analysis-lanes.ts); files are read through vscode.workspace.fs: attention files in the
// model editor (model-editor/web-files.ts) and the model folder a model spec names (model-run/). What
// needs a disk (a Hugging Face cache, an absolute path) says so in one line.
import * as vscode from 'vscode';
import { AnalysisCache } from '../analysis/cache.js';
import { AnalysisRunner } from '../analysis/runner.js';
import { SpecDiagnostics } from '../spec-editor/diagnostics.js';
import { registerSpecHovers } from '../spec-editor/hover.js';
import { registerWeightCompletions } from '../spec-editor/completion.js';
import { specCommands } from '../spec-commands.js';
import { disposeLog, log } from '../log.js';
import { PanelManager } from '../panel/panels.js';
import type { Timings } from '../panel/info.js';
import { InstalledDialogs } from '../dialogs.js';
import { notOnTheWeb } from './not-on-web.js';
import { webAnalysisLanes } from './analysis-lanes.js';
import { Analyst } from '../analysis/analyst.js';
import { webRunSessions } from './model-run/web-runs.js';
import { filesNotRead } from './no-disk-files.js';
import { withSpecFiles } from './spec-files.js';
import { ModelEditorProvider } from '../model-editor/editor.js';
import { webModelFiles } from './model-editor/web-files.js';
import { webReferencedFile } from './model-editor/reference.js';

const loadedAt = performance.now();

export function activate(context: vscode.ExtensionContext): { panels: () => unknown; timings: () => Timings } {
  const timings: Timings = { activateMs: 0 };
  const dialogs = new InstalledDialogs();
  // Specs are computed in a Web Worker where the runtime gives one, else here between events.
  // The tensor files a spec names are read through workspace.fs first (spec-files.ts), then opened from memory.
  const runner = new AnalysisRunner(webAnalysisLanes(context.extensionUri), (line) => log().warn(line), new Analyst(undefined, undefined, filesNotRead), withSpecFiles);
  // Every spec's "folder" here is its URI, where spec-files.ts reads beside it.
  const cache = new AnalysisCache(runner, (document) => document.uri.toString());
  const models = ModelEditorProvider.register(context, webModelFiles(context.extensionUri));
  const panels: PanelManager = new PanelManager({
    extensionUri: context.extensionUri, cache, timings, dialogs,
    referencedFile: webReferencedFile,
    openModel: (file, open, show) => models.openReference(file, open, show),
    runModel: (spec, show) => runs.open(spec, show),
  });
  // A model spec runs its model from a folder beside it, read through workspace.fs (model-run/).
  const runs = webRunSessions(context, cache, dialogs, (uri) => panels.show(uri));
  context.subscriptions.push(
    new SpecDiagnostics(cache),
    registerSpecHovers(cache),
    registerWeightCompletions(),
    panels,
    runs,
    ...specCommands(context, panels),
    // Run a Model… picks from the Hugging Face cache on a disk; a model spec beside its model folder runs here.
    vscode.commands.registerCommand('attentionLens.runModel', () => notOnTheWeb('Run a Model… lists the models of a Hugging Face cache on a disk (a model spec naming a model folder in this workspace runs here)')),
    vscode.commands.registerCommand('attentionLens.saveHeadAsSpec', () => runs.saveHead()),
    { dispose: () => runner.dispose() },
    { dispose: disposeLog },
  );
  timings.activateMs = performance.now() - loadedAt;
  log().info(`activated (web) in ${timings.activateMs.toFixed(1)} ms`);
  return { panels: () => panels.infos(), timings: () => ({ ...timings }) };
}

export function deactivate(): void {}
