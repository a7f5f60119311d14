// Reading a V8 CPU profile (node:inspector's Profiler.stop): the longest stretch a thread was busy,
// whose code filled it, and the longest stretch with one program's code on the stack. Used by
// bench:vscode --profile (test/integration/bench/host-profile.ts) on the extension host's thread,
// which VS Code's own extensions share with ours.

export interface HostProfile {
  /** The longest run of samples in which the thread was not idle, ms. */
  busyMs: number;
  /** Whose code the samples of that run were in, most first: "extensionHostProcess.js 56%, (garbage collector) 20%". */
  busyOwners: string;
  /** The longest run of samples with our code on the stack (a garbage collection inside it counts as ours), ms. */
  oursMs: number;
}

interface CallFrame { functionName: string; url: string }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
export interface CpuProfile { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] }

const GC = '(garbage collector)';

/**
 * Reads a profile. `isOurs` says whether a script URL is our code. A sample's owner is the innermost
 * frame with a script of its own (a Node built-in is charged to whoever called it), or GC.
 */
export function readProfile(profile: CpuProfile, isOurs: (url: string) => boolean): HostProfile {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const kinds = new Map<number, { idle: boolean; gc: boolean; ours: boolean; owner: string }>();
  const kindOf = (id: number) => {
    let k = kinds.get(id);
    if (k) return k;
    const name = byId.get(id)?.callFrame.functionName ?? '';
    let ours = false, owner = '';
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (isOurs(url)) ours = true;
      if (!owner && url && !url.startsWith('node:') && /\.[cm]?js$/.test(url)) owner = url.slice(url.lastIndexOf('/') + 1);
    }
    k = { idle: name === '(idle)', gc: name === GC, ours, owner: name === GC ? GC : owner || name };
    kinds.set(id, k);
    return k;
  };
  // Each sample's time: the profile's start plus the deltas so far (µs).
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push((t += d));
  let busy = { ms: 0, from: 0, to: 0 };
  let ours = 0;
  let busyFrom = -1, oursFrom = -1, oursLast = -1;
  const end = (k: number) => times[Math.min(k, times.length - 1)];
  for (let k = 0; k <= profile.samples.length; k++) {
    const kind = k < profile.samples.length ? kindOf(profile.samples[k]) : undefined;
    if (kind && !kind.idle) {
      if (busyFrom < 0) busyFrom = k;
    } else if (busyFrom >= 0) {
      const ms = (end(k) - times[busyFrom]) / 1000;
      if (ms > busy.ms) busy = { ms, from: busyFrom, to: k };
      busyFrom = -1;
    }
    if (kind && (kind.ours || (kind.gc && oursFrom >= 0))) {
      if (oursFrom < 0) oursFrom = k;
      if (kind.ours) oursLast = k;
    } else if (oursFrom >= 0) {
      ours = Math.max(ours, (end(oursLast + 1) - times[oursFrom]) / 1000);
      oursFrom = -1;
    }
  }
  const owners = new Map<string, number>();
  for (let k = busy.from; k < busy.to; k++) {
    const o = kindOf(profile.samples[k]).owner;
    owners.set(o, (owners.get(o) ?? 0) + 1);
  }
  const count = Math.max(1, busy.to - busy.from);
  const busyOwners = [...owners].sort((x, y) => y[1] - x[1]).slice(0, 3)
    .map(([o, c]) => `${o} ${Math.round((100 * c) / count)}%`).join(', ');
  return { busyMs: busy.ms, busyOwners, oursMs: ours };
}
