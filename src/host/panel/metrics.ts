// A panel's clocks: show → paint, edit → paint, and what the last version cost (analysis in the
// worker plus the webview's drawing), from which the wait after the next edit is chosen.
import type { Timings } from './info.js';
import { updateDelay } from '../update-delay.js';

export class PanelMetrics {
  private showStartedAt?: number;
  /** When the first edit since the last paint arrived: stopped by the 'painted' of a later version. */
  private editStartedAt?: { at: number; version: number };
  private lastAnalysisMs = 0;
  private lastCostMs?: number;

  constructor(private readonly timings: Timings) {}

  /** Show Attention: the clock runs until the next paint. */
  shown(): void {
    this.showStartedAt = performance.now();
    this.timings.lastShowToReadyMs = undefined;
  }

  /** The webview's script said 'ready': the first time since Show Attention, how long its boot took. */
  ready(): void {
    if (this.showStartedAt !== undefined && this.timings.lastShowToReadyMs === undefined) {
      this.timings.lastShowToReadyMs = performance.now() - this.showStartedAt;
    }
  }

  /** An edit: the first since the last paint starts the clock. Returns the wait before updating. */
  edited(version: number): number {
    this.editStartedAt ??= { at: performance.now(), version };
    const delay = updateDelay(this.lastCostMs);
    this.timings.lastUpdateDelayMs = delay;
    return delay;
  }

  analysed(ms: number, messageBytes?: number): void {
    this.lastAnalysisMs = ms;
    this.timings.lastAnalysisMs = ms;
    if (messageBytes !== undefined) this.timings.lastMessageBytes = messageBytes;
  }

  /** The webview painted `version` in drawMs: stops the clocks that were waiting for it. */
  painted(version: number, drawMs: number): void {
    if (this.showStartedAt !== undefined) {
      this.timings.lastShowToPaintMs = performance.now() - this.showStartedAt;
      this.showStartedAt = undefined;
    }
    if (this.editStartedAt && version >= this.editStartedAt.version) {
      this.timings.lastEditToPaintMs = performance.now() - this.editStartedAt.at;
      this.editStartedAt = undefined;
    }
    this.lastCostMs = this.lastAnalysisMs + drawMs;
  }
}
