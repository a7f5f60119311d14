// Running this folder's extension in code-server's web worker extension host, as vscode.dev would,
// and asking that host what it can do. The user setting `remote.extensionKind` gives the extension
// the kind `web`, so the workbench runs its package.json "browser" entry (dist/web/extension.js) in
// the web worker extension host, with no Node; the folder is loaded as the extension under
// development (code-server carries VS Code's web build: nothing is downloaded).
import type { Frame, Page, Worker } from 'playwright-core';
import { makeUserDataDir } from '../../scripts/vscode/code-server.mjs';
import { gemmWasmBase64 } from '../../src/core/kernels/gemm-wasm.js';
import { gemm32WasmBase64 } from '../../src/core/kernels/gemm32-wasm.js';
import { poll, runCommand } from './workbench.js';

export const EXTENSION_ID = 'attention-lens.attention-lens';

/** A user-data folder whose settings run this extension in the web worker extension host. */
export function webHostUserDataDir(extra: Record<string, unknown> = {}): string {
  return makeUserDataDir({
    'remote.extensionKind': { [EXTENSION_ID]: ['web'] }, 'files.autoSave': 'off', 'telemetry.telemetryLevel': 'off', ...extra,
  });
}

/** Where Developer: Show Running Extensions says this extension runs ("web worker", or the server's address). */
export async function runningWhere(page: Page): Promise<string> {
  await runCommand(page, 'Developer: Show Running Extensions');
  const row = page.locator('.monaco-list-row', { hasText: EXTENSION_ID }).first();
  await row.waitFor({ timeout: 30_000 });
  const text = await poll('the extension activated', async () => {
    const t = await row.innerText();
    return /Activating/.test(t) ? undefined : t;
  }, 30_000);
  await page.keyboard.press('Control+W');
  return text;
}

/**
 * Whether the matrix kernels the core ships (gemm.wat for the specs' float64, gemm32.wat for the model
 * runs' float32; SIMD128) compile where `where` runs: "compiles", or the first error the runtime gives
 * (a CSP without 'wasm-unsafe-eval' or 'unsafe-eval' refuses them).
 */
export async function kernelCompiles(where: Worker | Frame): Promise<string> {
  const probe = (kernels: string[]): string => {
    for (const base64 of kernels) {
      try {
        const binary = atob(base64);
        const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
        if (!WebAssembly.validate(bytes)) return 'does not validate (no SIMD128)';
        new WebAssembly.Module(bytes);
      } catch (e) {
        return String(e);
      }
    }
    return 'compiles';
  };
  const kernels = [gemmWasmBase64, gemm32WasmBase64];
  return 'childFrames' in where ? where.evaluate(probe, kernels) : where.evaluate(probe, kernels);
}
