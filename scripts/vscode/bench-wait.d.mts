// Types for bench-wait.mjs, so the in-host bench and the unit tests can use it.
export class StalledError extends Error {}
export function untilQuiet<T>(wait: {
  what: string;
  probe: () => T | undefined | false;
  progress: () => unknown;
  quietMs: number;
  pollMs?: number;
  now?: () => number;
}): Promise<T>;
