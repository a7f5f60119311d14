// The end of a screenshot script in the real VS Code (screenshots-analyses.ts, screenshots-head-map.ts):
// Chromium closed, code-server's whole process group ended, the temp folders removed; then the count
// of pictures, or the one-line error and exit code 1.
import type { Browser } from 'playwright-core';
import { killGroup, removeTempDirs, type CodeServer } from './vscode/code-server.mjs';

/** Ends what the script started, whatever happened while it shot. */
export async function endShots(browser: Browser, server: CodeServer): Promise<void> {
  await browser.close();
  await killGroup(server.pid);
  removeTempDirs();
}

/** Runs `shoot` (which resolves with the pictures it wrote) and says how it ended. */
export function runShots(shoot: () => Promise<string[]>, results: string): void {
  shoot().then(
    (made) => console.log(`${made.length} screenshots in ${results}`),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exitCode = 1;
    },
  );
}
