// Types for code-server.mjs, so the TypeScript end-to-end tests can use it.
import type { ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';

export const ROOT: string;
export function freePort(): Promise<number>;
export function tempDir(prefix: string): string;
export function removeTempDirs(): void;
export function makeUserDataDir(extraSettings?: Record<string, unknown>): string;
export function makeExampleWorkspace(): string;
export function killGroup(pid: number | undefined, graceMs?: number): Promise<void>;
export interface CodeServer {
  base: string; port: number; pid: number; child: ChildProcess; logFile: string;
  userDataDir: string; extensionsDir: string; stop(): Promise<void>;
}
export function startCodeServer(options?: {
  port?: number; userDataDir?: string; extensionsDir?: string; env?: Record<string, string>; logFile?: string; folder?: string;
}): Promise<CodeServer>;
export function tail(file: string, lines?: number): string;
export function workbenchUrl(base: string, options?: { folder?: string; extensionDevelopmentPath?: string; extensionTestsPath?: string }): string;
export function launchChromium(options?: { headless?: boolean }): Promise<Browser>;
export function installVsix(vsix: string, extensionsDir: string): void;
