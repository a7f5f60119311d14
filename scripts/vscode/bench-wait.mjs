// How `npm run bench:vscode` waits: for as long as the thing waited on is moving, not for a fixed time.
// On a loaded machine (2 cores, 8 jobs) a step may take minutes where it takes seconds alone; a fixed
// timeout then ended the whole run ("timed out waiting for the browser to type") and every figure
// already taken was lost. A wait here fails only once nothing has moved for `quietMs`: the browser has
// pressed no key, the host has written no row. What is waited on says how it moves (`progress`).
// Used by scripts/bench-vscode.mjs and, bundled, by test/integration/bench/index.ts (types: bench-wait.d.mts).

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Why a wait gave up: nothing moved for its quiet time. */
export class StalledError extends Error {
  name = 'StalledError';
}

/**
 * Waits until `probe()` gives a value (anything but undefined or false); throws StalledError once
 * `progress()` (any value that changes while the work moves on, compared with ===) has not changed
 * for `quietMs`. `pollMs`: how often to look (1); `now`: the clock (performance.now).
 */
export async function untilQuiet({ what, probe, progress, quietMs, pollMs = 1, now = () => performance.now() }) {
  let seen = progress();
  let movedAt = now();
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    const p = progress();
    if (p !== seen) { seen = p; movedAt = now(); }
    if (now() - movedAt > quietMs) throw new StalledError(`nothing moved for ${Math.round(quietMs / 1000)} s while waiting for ${what}`);
    await sleep(pollMs);
  }
}
