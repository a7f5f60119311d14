// A private temporary folder for one test file, removed when the file's process ends. Each test file
// runs in its own process (node --test), so an exit hook cleans up after a file whatever its tests did,
// even a failing one; before this, every run left a few hundred folders in the machine's temp dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
let hooked = false;

/** A new folder under the OS's temp dir (mode 0700, as mkdtemp makes it), gone at process exit. */
export function tempDir(prefix = 'attn-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  if (!hooked) {
    hooked = true;
    process.on('exit', () => {
      for (const d of made) rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}
