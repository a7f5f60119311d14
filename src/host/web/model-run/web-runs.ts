// Model specs run on the web: the desktop's run sessions (host/checkpoint-run/sessions.ts, one code
// base) given the web's places and lanes. The model is a folder beside the spec in the workspace,
// read through workspace.fs (model-files.ts); the run is in a Web Worker, else on the host's thread
// (run-lanes.ts). Saving a head as a spec writes a safetensors file with node:fs on the desktop: here
// it says so in one line.
import * as vscode from 'vscode';
import type { AnalysisCache } from '../../analysis/cache.js';
import type { Dialogs } from '../../dialogs.js';
import { log } from '../../log.js';
import { RunSessions } from '../../checkpoint-run/sessions.js';
import type { RunPlaces } from '../../checkpoint-run/session.js';
import { notOnTheWeb } from '../not-on-web.js';
import { WebModelFiles } from './model-files.js';
import { webRunLanes } from './run-lanes.js';

/** What a head saved as a spec needs that the web has not. */
export const SAVE_HEAD_ON_THE_WEB = 'a head is saved as a spec with its numbers in a safetensors file written to a disk';

/** The web's places: models through workspace.fs, heads not saved (said so). */
export function webRunPlaces(files = new WebModelFiles()): RunPlaces {
  return {
    locate: (model, spec) => files.locate(model, spec),
    saveLens: () => { notOnTheWeb(SAVE_HEAD_ON_THE_WEB); return Promise.resolve(); },
  };
}

export function webRunSessions(context: vscode.ExtensionContext, cache: AnalysisCache, dialogs: Dialogs, showSpec: (uri: vscode.Uri) => Thenable<unknown>): RunSessions {
  return new RunSessions({
    extensionUri: context.extensionUri, globalStorageUri: context.globalStorageUri, cache, dialogs, showSpec,
    workers: webRunLanes(context.extensionUri, (line) => log().warn(line)),
    places: webRunPlaces(),
    diagnostics: vscode.languages.createDiagnosticCollection('attention-lens-run'),
  });
}
