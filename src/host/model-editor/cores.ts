// The host's cores, for how many readers share a scan (document.ts). No node:os here (the web build
// takes this folder): the desktop says its count once its model files are set up (disk-files.ts);
// a browser's runtime tells it through navigator; else one core, so no helper joins.

let said: number | undefined;

/** The desktop's count (os.availableParallelism()). */
export function sayHostCores(cores: number): void { said = cores; }

export function hostCores(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  return said ?? (nav?.hardwareConcurrency || 1);
}
