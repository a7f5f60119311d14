// `npm start` support: with ATTN_SHOW_ON_START set to a spec's path (absolute, or relative to the
// first workspace folder), activation opens that spec and runs Show Attention on it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { log } from '../log.js';
import { PANEL_VIEW_TYPE } from './panel.js';

export const SHOW_ON_START_ENV = 'ATTN_SHOW_ON_START';

export function startUri(value: string, folder: vscode.Uri | undefined): vscode.Uri | undefined {
  if (path.isAbsolute(value)) return vscode.Uri.file(value);
  return folder ? vscode.Uri.joinPath(folder, value) : undefined;
}

export async function showOnStart(show: (uri: vscode.Uri) => Promise<unknown>): Promise<void> {
  const value = process.env[SHOW_ON_START_ENV]?.trim();
  if (!value) return;
  if (panelTabsOpen()) {
    log().info(`${SHOW_ON_START_ENV}: the window is restoring its Attention panels; not opening another`);
    return;
  }
  const uri = startUri(value, vscode.workspace.workspaceFolders?.[0]?.uri);
  if (!uri) {
    log().warn(`${SHOW_ON_START_ENV}=${value} is relative but no folder is open`);
    return;
  }
  try {
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
    await show(uri);
  } catch (err) {
    log().error(`${SHOW_ON_START_ENV}: cannot show ${uri.toString()}:`, err instanceof Error ? err.message : String(err));
  }
}

/** Attention panel tabs the workbench restores after a reload (their serializer may not have run yet). */
function panelTabsOpen(): boolean {
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) =>
    t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(PANEL_VIEW_TYPE)));
}
