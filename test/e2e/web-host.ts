// Running this folder's extension in code-server's web worker extension host, as vscode.dev would,
// and asking that host what it can do. The user setting `remote.extensionKind` gives the extension
// the kind `web`, so the workbench runs its package.json "browser" entry (dist/web/extension.js) in
// the web worker extension host, with no Node; the folder is loaded as the extension under
// development (code-server carries VS Code's web build: nothing is downloaded).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Frame, Page, Worker } from 'playwright-core';
import { launchChromium, makeUserDataDir, removeTempDirs, ROOT, startCodeServer, tail, type CodeServer } from '../../scripts/vscode/code-server.mjs';
import { gemmWasmBase64 } from '../../src/core/kernels/gemm-wasm.js';
import { gemm32WasmBase64 } from '../../src/core/kernels/gemm32-wasm.js';
import { poll, runCommand, waitForWorkbench, RESULTS } from './workbench.js';

export const EXTENSION_ID = 'attention-lens.attention-lens';

/** A user-data folder whose settings run this extension in the web worker extension host. */
export function webHostUserDataDir(extra: Record<string, unknown> = {}): string {
  return makeUserDataDir({
    'remote.extensionKind': { [EXTENSION_ID]: ['web'] }, 'files.autoSave': 'off', 'telemetry.telemetryLevel': 'off', ...extra,
  });
}

/** Which extension host runs this extension: VS Code for the Web's web worker one, or code-server's Node one. */
export type HostKind = 'web' | 'workspace';

/** The workbench URL loading this folder as the extension under development. */
export function devUrl(base: string, folder: string): string {
  const host = new URL(base).host;
  const payload = [['extensionDevelopmentPath', `vscode-remote://${host}${ROOT}`]];
  return `${base}/?${new URLSearchParams({ folder, payload: JSON.stringify(payload) }).toString()}`;
}

/** The user settings: with `web`, this extension's kind is web, so it runs in the web worker extension host. */
export function writeHostSettings(userDataDir: string, kind: HostKind): void {
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({
    'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none', 'files.autoSave': 'off',
    'extensions.autoCheckUpdates': false, 'extensions.autoUpdate': false, 'telemetry.telemetryLevel': 'off',
    ...(kind === 'web' ? { 'remote.extensionKind': { [EXTENSION_ID]: ['web'] } } : {}),
  }, null, 2));
}

/** A page of the workbench on `workspace` with this extension in the host `kind` asks for, checked by Running Extensions. */
export async function openInHost(server: CodeServer, browser: Browser, kind: HostKind, workspace: string): Promise<Page> {
  writeHostSettings(server.userDataDir, kind);
  const page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
  await page.goto(devUrl(server.base, workspace));
  await waitForWorkbench(page);
  const where = await runningWhere(page);
  if (kind === 'web' && !/web worker/.test(where)) throw new Error(`the extension should run in the web worker extension host: ${where}`);
  if (kind !== 'web' && /web worker/.test(where)) throw new Error(`the extension should run in the Node extension host: ${where}`);
  return page;
}

/**
 * The text of an output channel, shown by Output: Show Output Channels…, once a line of it matches
 * `ready` (the channel's editor fills after it opens; it draws spaces as no-break spaces).
 */
export async function outputChannel(page: Page, name: string, ready: RegExp): Promise<string> {
  // The keyboard back to the workbench from a webview (a tooltip may have been hovered last).
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+1');
  await runCommand(page, 'Output: Show Output Channels...');
  const input = page.locator('.quick-input-widget input[type="text"], .quick-input-widget .quick-input-box input').first();
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  return poll(`the ${name} output`, async () => {
    const text = (await page.locator('.output-view .view-lines, .part.panel .monaco-editor .view-lines').allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
    return ready.test(text) ? text : undefined;
  }, 15_000);
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

/** code-server with `userDataDir`, its log in test-results/NAME-server.log, and a headless Chromium to look at it. */
export async function startWorkbenchServer(name: string, userDataDir: string): Promise<{ server: CodeServer; browser: Browser }> {
  fs.mkdirSync(RESULTS, { recursive: true });
  const server = await startCodeServer({ userDataDir, logFile: path.join(RESULTS, `${name}-server.log`) });
  if (process.env.ATTN_E2E_PIDS) fs.appendFileSync(process.env.ATTN_E2E_PIDS, `${server.pid}\n`);
  return { server, browser: await launchChromium() };
}

/** Ends what startWorkbenchServer started, removes the temp folders (unless ATTN_KEEP_TEMP) and prints the server log's tail. */
export async function stopWorkbenchServer(server: CodeServer | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close().catch(() => {});
  await server?.stop();
  if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
  if (server) console.log(`code-server log (tail):\n${tail(server.logFile, 5)}`);
}
