// Bundles the integration suite (test/integration/, mocha included) into out/integration/index.js,
// the module VS Code loads as extensionTestsPath. One CommonJS bundle with `vscode` left external,
// so it loads in any extension host (code-server's Node or Electron's) without resolving mocha's ESM.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SUITE_BUNDLE = path.join(ROOT, 'out', 'integration', 'index.js');

export const ACTIVATION_BUNDLE = path.join(ROOT, 'out', 'integration', 'activation.js');

/** The main suite (test/integration/index.ts), or another entry with a run() of its own. */
export async function buildIntegrationSuite(entry = path.join(ROOT, 'test', 'integration', 'index.ts'), outfile = SUITE_BUNDLE) {
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: ['vscode'], sourcemap: 'inline', logLevel: 'warning',
    // Tests import host modules (src/host/spec-editor/reveal.ts) that use jsonc-parser: bundle its ESM build, as scripts/build.mjs does.
    mainFields: ['module', 'main'],
    // mocha's parallel mode (unused here) resolves worker files at run time.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  return outfile;
}

/** The activation run (test/integration/activation/): a window whose workspace holds no spec. */
export function buildActivationSuite() {
  return buildIntegrationSuite(path.join(ROOT, 'test', 'integration', 'activation', 'index.ts'), ACTIVATION_BUNDLE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.log(await buildIntegrationSuite());
}
