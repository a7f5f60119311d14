// A panel's clocks: show → paint, edit → paint, and what the last version cost (analysis in the
// worker plus the webview's drawing), from which the debounce after the next edit is chosen; and the
// parts of edit → paint (the wait, the analysis, post → 'painted', the drawing) for bench:vscode.
// The debounce is for edits that follow one another (typing): an edit after a quiet spell longer
// than its debounce has nothing to wait for, and is shown at once (afterQuiet).
import type { Timings } from './info.js';
import { updateDelay } from '../update-delay.js';

export class PanelMetrics {
  private showStartedAt?: number;
  /** When the first edit since the last paint arrived: stopped by the 'painted' of a later version. */
  private editStartedAt?: { at: number; version: number };
  /** When the last edit arrived, and when the last result was posted (for which version). */
  private lastEditAt?: number;
  /** When the edit before the last one arrived (never cleared), and whether the last came after a quiet spell. */
  private previousEditAt?: number;
  private quiet = true;
  private postedAt?: { at: number; version: number };
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

  /**
   * An edit: the first since the last paint starts the clock. Returns the debounce: the wait before
   * updating when edits follow one another (see afterQuiet for an edit that does not).
   */
  edited(version: number): number {
    const now = performance.now();
    this.editStartedAt ??= { at: now, version };
    this.lastEditAt = now;
    const delay = updateDelay(this.lastCostMs);
    this.quiet = this.previousEditAt === undefined || now - this.previousEditAt > delay;
    this.previousEditAt = now;
    this.timings.lastUpdateDelayMs = delay;
    return delay;
  }

  /**
   * Whether the last edit came after a quiet spell longer than its debounce (or is the first): one
   * edit on its own, not typing, so nothing is coming to wait for.
   */
  get afterQuiet(): boolean {
    return this.quiet;
  }

  /** The panel reads the document to show it: the wait since the last edit ends here. */
  updating(): void {
    if (this.lastEditAt === undefined) return;
    this.timings.lastWaitMs = performance.now() - this.lastEditAt;
    this.lastEditAt = undefined;
  }

  analysed(ms: number, messageBytes?: number): void {
    this.lastAnalysisMs = ms;
    this.timings.lastAnalysisMs = ms;
    if (messageBytes !== undefined) this.timings.lastMessageBytes = messageBytes;
  }

  /** A result for `version` was posted to the webview. */
  posted(version: number): void {
    this.postedAt = { at: performance.now(), version };
  }

  /** The webview painted `version` in drawMs: stops the clocks that were waiting for it. */
  painted(version: number, drawMs: number): void {
    const now = performance.now();
    if (this.showStartedAt !== undefined) {
      this.timings.lastShowToPaintMs = now - this.showStartedAt;
      this.showStartedAt = undefined;
    }
    if (this.editStartedAt && version >= this.editStartedAt.version) {
      this.timings.lastEditToPaintMs = now - this.editStartedAt.at;
      this.editStartedAt = undefined;
    }
    if (this.postedAt?.version === version) {
      this.timings.lastPostToPaintMs = now - this.postedAt.at;
      this.postedAt = undefined;
    }
    this.timings.lastDrawMs = drawMs;
    this.lastCostMs = this.lastAnalysisMs + drawMs;
  }
}
