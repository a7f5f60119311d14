// The dialogs the extension asks the user through, passed to whoever asks (the panels' Export, a
// model run's "Save this head as a spec") instead of called on vscode.window where they stand: the
// integration tests cannot press a button in a save dialog, so the test API installs dialogs that
// answer at once, and product code holds no switch of its own for tests to flip.
import * as vscode from 'vscode';

export interface Dialogs {
  /** Asks where to save; undefined when the user cancels. */
  save(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
}

/** VS Code's own dialogs: the user answers. */
export const userDialogs: Dialogs = {
  save: (options) => vscode.window.showSaveDialog(options),
};

/** Dialogs that take what they propose at once (a save dialog that proposes no file is shown as usual). */
export const proposedDialogs: Dialogs = {
  save: (options) => (options.defaultUri ? Promise.resolve(options.defaultUri) : userDialogs.save(options)),
};

/** How the test API says save dialogs are answered: by the user ('ask'), or with the proposed file ('default'). */
export type SaveDialogAnswer = 'ask' | 'default';

/** The extension's dialogs: the user's, until the test API installs others. */
export class InstalledDialogs implements Dialogs {
  private current: Dialogs = userDialogs;

  install(dialogs: Dialogs): void {
    this.current = dialogs;
  }

  save(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined> {
    return this.current.save(options);
  }
}
