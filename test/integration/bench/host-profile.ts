// `npm run bench:vscode -- --profile`: whose code held the extension host's thread during an edit.
// That thread is shared with VS Code's own extensions (the JSON language features answer the
// outline's document symbols on every edit; git spawns processes), so a stall the event-loop
// sampler (src/host/stall-monitor.ts) sees need not be ours. A CPU profile of each measured edit,
// taken in this very process through node:inspector, is read for the longest stretch the thread was
// busy (and whose code was most on top in it) and the longest stretch with Attention Lens' own code
// (dist/extension.js) on the stack.
import * as inspector from 'node:inspector';
import { readProfile, type CpuProfile, type HostProfile } from '../../../scripts/cpu-profile';

export type { HostProfile };

/** A CPU profiler on this process's own thread. */
export class HostProfiler {
  private readonly session = new inspector.Session();

  constructor(private readonly isOurs: (url: string) => boolean) {
    this.session.connect();
  }

  private post<T>(method: string, params?: object): Promise<T> {
    return new Promise((resolve, reject) => {
      this.session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T)));
    });
  }

  async start(): Promise<void> {
    await this.post('Profiler.enable');
    await this.post('Profiler.setSamplingInterval', { interval: 250 });
    await this.post('Profiler.start');
  }

  async stop(): Promise<HostProfile> {
    const { profile } = await this.post<{ profile: CpuProfile }>('Profiler.stop');
    return readProfile(profile, this.isOurs);
  }

  dispose(): void {
    this.session.disconnect();
  }
}
