// Entry point for the second, short run of the integration suite: a window whose workspace holds
// no spec, so nothing has activated the extension yet (in the main run, workspaceContains has).
// The runner (scripts/vscode/run-code-server-tests.mjs) opens it after the main suite; the result
// goes next to the main one as activation-result.json.
import * as path from 'node:path';
import { resultPath, runMocha } from '../index';

export function activationResultPath(): string {
  return path.join(path.dirname(resultPath()), 'activation-result.json');
}

export function run(): Promise<void> {
  return runMocha(activationResultPath(), () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('./activation.test');
  });
}
