// How long the extension host's thread was busy without a break: the longest event-loop delay
// since the last reset, measured by Node's own sampler (perf_hooks). bench:vscode reads it per
// edit; the goal is no stall over 50 ms while a spec is edited, whatever its size.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export class StallMonitor {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });

  constructor() {
    this.histogram.enable();
  }

  /** The longest stall since the last reset, in ms (the sampler's resolution, 10 ms, is subtracted). */
  maxMs(): number {
    return Math.max(0, this.histogram.max / 1e6 - 10);
  }

  reset(): void {
    this.histogram.reset();
  }

  dispose(): void {
    this.histogram.disable();
  }
}
