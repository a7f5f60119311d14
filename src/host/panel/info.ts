// What a panel says of itself: its document, version, state and timings. The panels collect it, and
// the integration tests read it through the API activate() returns (src/host/test-api.ts), which is built
// from these types: the test seam imports the panel, never the other way round.
import type { ViewName } from '../../protocol/panel.js';

export type PanelStatus = 'ready' | 'error' | 'loading';

export interface PanelInfo {
  documentUri: string;
  /** The document version the panel last showed (rendered or listed problems for). */
  version: number;
  state: PanelStatus;
  /** Tokens of the input the panel shows, from the last result it rendered. */
  tokens: string[];
  view: ViewName | string;
  locked: boolean;
}

export interface Timings {
  /** From the extension's module loading to the end of activate(). */
  activateMs: number;
  /** From the last Show Attention to the webview's first 'ready' after it (its boot, when the panel is new). */
  lastShowToReadyMs?: number;
  /** From the last Show Attention to the webview's first 'painted' after it. */
  lastShowToPaintMs?: number;
  /** From the first edit after a paint to the webview's 'painted' of that version or a later one. */
  lastEditToPaintMs?: number;
  /** The debounce the panel chose at the last edit (half the last redraw's cost): its wait when edits follow one another; an edit after a quiet spell longer than that is shown at once (lastWaitMs). */
  lastUpdateDelayMs?: number;
  /** Bytes of the binary buffer of the last result posted to a panel. */
  lastMessageBytes?: number;
  /** Milliseconds the last analysis took in the worker (read, compute, pack). */
  lastAnalysisMs?: number;
  /** Milliseconds the last result's postMessage held the host's thread. */
  lastPostMs?: number;
  /** From the last edit's arrival to the panel reading the document (the wait actually taken). */
  lastWaitMs?: number;
  /** From the last result posted to the webview's 'painted' of it (its transfer, check, decode and drawing). */
  lastPostToPaintMs?: number;
  /** The drawing, as the webview reported it in 'painted' (drawMs). */
  lastDrawMs?: number;
}
