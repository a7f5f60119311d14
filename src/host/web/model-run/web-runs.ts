// Model specs run on the web: the desktop's run sessions (host/checkpoint-run/sessions.ts, one code
// base) given the web's places and lanes. The model is a folder beside the spec in the workspace,
// read through workspace.fs (model-files.ts); the run is in a Web Worker, else on the host's thread
// (run-lanes.ts). A head saved as a spec, or opened in the lens, is written through workspace.fs
// (web-lens.ts).
import * as vscode from 'vscode';
import type { AnalysisCache } from '../../analysis/cache.js';
import type { Dialogs } from '../../dialogs.js';
import { log } from '../../log.js';
import { RunSessions } from '../../checkpoint-run/sessions.js';
import type { RunPlaces } from '../../checkpoint-run/session.js';
import { WebModelFiles } from './model-files.js';
import { webRunLanes } from './run-lanes.js';
import { saveWebLens } from './web-lens.js';

/** The web's places: models and heads through workspace.fs. */
export function webRunPlaces(files = new WebModelFiles()): RunPlaces {
  return { locate: (model, spec) => files.locate(model, spec), saveLens: saveWebLens };
}

export function webRunSessions(context: vscode.ExtensionContext, cache: AnalysisCache, dialogs: Dialogs, showSpec: (uri: vscode.Uri) => Thenable<unknown>): RunSessions {
  return new RunSessions({
    extensionUri: context.extensionUri, globalStorageUri: context.globalStorageUri, cache, dialogs, showSpec,
    workers: webRunLanes(context.extensionUri, (line) => log().warn(line)),
    places: webRunPlaces(),
    diagnostics: vscode.languages.createDiagnosticCollection('attention-lens-run'),
  });
}
