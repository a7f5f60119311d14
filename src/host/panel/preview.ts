// What a panel knows of the document it shows. A panel that moves to another document makes a
// new one, so nothing of the old document's state can leak into the new one's picture.
import type * as vscode from 'vscode';
import type { AttentionData } from '../../core/result/attention-data.js';
import type { PanelState } from '../../protocol/panel.js';
import type { PanelStatus } from './info.js';

export class DocumentPreview {
  status: PanelStatus = 'loading';
  /** The version last shown (rendered, or its problems listed); -1 before any. */
  shownVersion = -1;
  shownDocument?: vscode.TextDocument;
  /** The result model of the last result posted (the analysis cache's: nothing copied). */
  data?: AttentionData;
  /** The model file this document references, once the model editor was opened on it. */
  referenced?: string;
  /** The file name of the next spec the last render offered ("Next: …"), beside this one. */
  next?: string;
  /** Tokens of the input the panel shows, from the last result the webview painted. */
  tokens: string[] = [];

  constructor(readonly uri: vscode.Uri) {}

  /** A newer or equal version of this document than the one shown, or another TextDocument (closed and reopened). */
  isNew(document: vscode.TextDocument, version: number): boolean {
    return document !== this.shownDocument || version >= this.shownVersion;
  }

  /** The tokens of the input the user picked (the first one unless another was picked). */
  tokensFor(state: PanelState | undefined): string[] {
    const inputs = this.data?.inputs ?? [];
    const input = inputs[state?.input ?? 0] ?? inputs[0];
    return input ? [...input.tokens] : [];
  }
}
