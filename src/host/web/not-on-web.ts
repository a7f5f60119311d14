// The one line the web build says where a feature needs a disk or Node, so nothing is silently missing.
import * as vscode from 'vscode';

import { NOT_ON_THE_WEB } from './not-on-web-text.js';

export { NOT_ON_THE_WEB };

/** Says, in one line, that `what` needs the desktop. */
export function notOnTheWeb(what: string): void {
  void vscode.window.showInformationMessage(`Attention Lens: ${what}, which ${NOT_ON_THE_WEB}.`);
}
