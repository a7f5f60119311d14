// The one line the web build says where a feature needs a disk or Node, so nothing is silently missing.
import * as vscode from 'vscode';

export const NOT_ON_THE_WEB = 'is not available in VS Code for the Web yet: open this folder in VS Code on the desktop for it';

/** Says, in one line, that `what` needs the desktop. */
export function notOnTheWeb(what: string): void {
  void vscode.window.showInformationMessage(`Attention Lens: ${what}, which ${NOT_ON_THE_WEB}.`);
}
