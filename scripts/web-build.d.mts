// Types for web-build.mjs, so the TypeScript unit test can use it.
import type { BuildOptions, Plugin } from 'esbuild';

export const WEB_ENTRY: string;
export const WEB_OUTFILE: string;
export const WEB_WORKER_ENTRY: string;
export const WEB_WORKER_OUTFILE: string;
export function webWorkerBuildOptions(extra?: BuildOptions): BuildOptions & { entryPoints: string[]; outfile: string };
export const WEB_SCAN_WORKER_ENTRY: string;
export const WEB_SCAN_WORKER_OUTFILE: string;
export function webScanWorkerBuildOptions(extra?: BuildOptions): BuildOptions & { entryPoints: string[]; outfile: string };
export const EXAMPLES_INDEX: string;
export function writeExamplesIndex(root?: string): void;
export function isNodeBuiltin(path: string): boolean;
export const noNodeBuiltins: Plugin;
export function webBuildOptions(extra?: BuildOptions): BuildOptions & { entryPoints: string[]; outfile: string };
export const WEB_RUN_WORKER_ENTRY: string;
export const WEB_RUN_WORKER_OUTFILE: string;
export function webRunWorkerBuildOptions(extra?: BuildOptions): BuildOptions & { entryPoints: string[]; outfile: string };
