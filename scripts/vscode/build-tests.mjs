// Bundles the integration suite (test/integration/, mocha included) into out/integration/index.js,
// the module VS Code loads as extensionTestsPath. One CommonJS bundle with `vscode` left external,
// so it loads in any extension host (code-server's Node or Electron's) without resolving mocha's ESM.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SUITE_BUNDLE = path.join(ROOT, 'out', 'integration', 'index.js');

export async function buildIntegrationSuite() {
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'test', 'integration', 'index.ts')],
    outfile: SUITE_BUNDLE,
    bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: ['vscode'], sourcemap: 'inline', logLevel: 'warning',
    // mocha's parallel mode (unused here) resolves worker files at run time.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  return SUITE_BUNDLE;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.log(await buildIntegrationSuite());
}
