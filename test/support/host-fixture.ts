// What the host's unit tests share (with the vscode stand-in, test/support/vscode): an example spec
// copied to a fresh folder (so an export or an edit never touches examples/), the analysis cache the
// host uses with a runner that computes in place (no worker: src/host/analysis/runner.ts) and an
// Analyst that counts the specs it reads, and a wait for what happens after an event or a timer.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnalysisCache } from '../../src/host/analysis/cache.js';
import { AnalysisRunner } from '../../src/host/analysis/runner.js';
import { Analyst } from '../../src/host/analysis/analyst.js';
import { folderFiles } from '../../src/core/files/spec-files.js';
import { EXAMPLES } from './specs.js';
import { Uri } from './vscode/index.js';
import { tempDir } from './temp-dir.js';

/** A fresh folder holding copies of the named examples; their file URIs, in order. */
export function examplesInTemp(...names: string[]): { folder: string; uris: Uri[] } {
  const folder = tempDir('attn-host-');
  const uris = names.map((name) => {
    copyFileSync(join(EXAMPLES, name), join(folder, name));
    return Uri.file(join(folder, name));
  });
  return { folder, uris };
}

/** The host's analysis cache over an in-place runner; `analyst.reads` counts the specs read and computed. */
export function countingCache(): { cache: AnalysisCache; analyst: Analyst; runner: AnalysisRunner } {
  const analyst = new Analyst(undefined, undefined, folderFiles);
  const runner = new AnalysisRunner(undefined, () => {}, analyst);
  return { cache: new AnalysisCache(runner), analyst, runner };
}

/** Waits (polling) until `done()` is true; fails with `what` after `ms`. */
export async function until(what: string, done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Lets timers and a few event-loop turns pass (for "nothing more happens" checks). */
export const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
