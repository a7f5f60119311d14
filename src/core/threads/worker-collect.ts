// A kernel worker's young garbage collected after each job. A job's message holds the product's
// weight: a SharedArrayBuffer whose memory lives while any thread's object for it does. The worker
// allocates almost nothing of its own, so its collector seldom runs, and the weights of jobs long done
// (a model the editor has since closed, a tensor a run has dropped) stayed alive in it: switching
// between two models, a process held up to 1.1 GB of shared memory beyond the model loaded. A minor
// collection (a scavenge of the young objects, where the job's just-received objects are) frees them.
// Node exposes gc only under --expose-gc; the flag set at run time gives a new context its gc.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor' | 'major' }) => void;

/** A minor collection of this thread's heap, or nothing where the runtime does not allow it. */
export function minorCollector(): () => void {
  try {
    // V8's flags are the process's: set for the one context made here, then cleared again.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as Collect | undefined;
    setFlagsFromString('--no-expose-gc');
    if (typeof gc === 'function') return () => gc({ type: 'minor' });
  } catch {
    // A runtime without the flag: the collector runs when it will.
  }
  return () => undefined;
}
