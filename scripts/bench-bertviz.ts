// BertViz's head view as the reference for scripts/bench-page.ts (--bertviz DIR): the goal is that the
// standalone page paint ≥ 20× faster than BertViz on the same tensors, timed in the same run. This makes
// the page head_view(attention, tokens, html_action='return') returns, on our attention file, from the
// BertViz checkout the user names, read at run time (nothing of BertViz is kept in this repository):
// the require.js tag and the vis div from head_view.py, head_view.js with every PYTHON_PARAMS replaced
// by json.dumps(params) (Python's str.replace replaces both: the code's and the comment's), and the three
// libraries it fetches from a CDN fetched instead with `npm pack` and loaded from file:// URLs (offline).
import { execFileSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { headViewParamsJson, type HeadViewAttention } from './bench-bertviz-json.js';

/** What the page is made of, as BertViz ships it. */
export interface BertvizSource {
  headViewPy: string;
  headViewJs: string;
  /** setup.py's version, or undefined (an installed package folder has none). */
  version?: string;
  /** Where it was read: 'a checkout', 'a git directory (HEAD)', 'an installed package'. */
  form: string;
}

/**
 * BertViz from `dir`: a checkout (dir/bertviz/head_view.js), a git directory (a bare clone or a
 * mirror's: its HEAD is read with git show), or the installed package folder itself (dir/head_view.js).
 */
export function readBertviz(dir: string): BertvizSource {
  if (existsSync(join(dir, 'bertviz', 'head_view.js'))) {
    const setup = join(dir, 'setup.py');
    return {
      headViewPy: readFileSync(join(dir, 'bertviz', 'head_view.py'), 'utf8'),
      headViewJs: readFileSync(join(dir, 'bertviz', 'head_view.js'), 'utf8'),
      version: existsSync(setup) ? setupVersion(readFileSync(setup, 'utf8')) : undefined,
      form: 'a checkout',
    };
  }
  if (existsSync(join(dir, 'head_view.js'))) {
    return { headViewPy: readFileSync(join(dir, 'head_view.py'), 'utf8'), headViewJs: readFileSync(join(dir, 'head_view.js'), 'utf8'), form: 'an installed package' };
  }
  if (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'))) {
    const show = (path: string) => execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${path}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
    let setup: string | undefined;
    try { setup = show('setup.py'); } catch { setup = undefined; }
    return { headViewPy: show('bertviz/head_view.py'), headViewJs: show('bertviz/head_view.js'), version: setup === undefined ? undefined : setupVersion(setup), form: 'a git directory (HEAD)' };
  }
  throw new Error(`${dir}: not a BertViz checkout (no bertviz/head_view.js), git directory or package folder (no head_view.js)`);
}

function setupVersion(setup: string): string | undefined {
  return /version\s*=\s*["']([^"']+)["']/.exec(setup)?.[1];
}

/** The libraries head_view.js asks require.js for, and require.js itself: local files, and their versions. */
export interface BertvizLibs {
  /** A folder with require.js, d3.min.js and jquery.min.js. */
  dir: string;
  /** What each is, for the report ('d3 5.7.0 (npm)'). */
  versions: string[];
}

/** The versions BertViz 1.4.1 loads from cdnjs, and where each npm package keeps the file. */
const LIBS = [
  { file: 'require.js', name: 'requirejs', versions: ['2.3.6'], inPackage: 'require.js' },
  { file: 'd3.min.js', name: 'd3', versions: ['5.7.0'], inPackage: 'dist/d3.min.js' },
  // jQuery 2.0.0 was never published to npm; 2.1.0 is the nearest that was.
  { file: 'jquery.min.js', name: 'jquery', versions: ['2.0.0', '2.1.0'], inPackage: 'dist/jquery.min.js' },
];

/** `npm pack`s each library (the first of its versions the registry has) into `dir`. */
export function packBertvizLibs(dir: string): BertvizLibs {
  mkdirSync(dir, { recursive: true });
  const versions: string[] = [];
  for (const lib of LIBS) {
    let packed: { version: string; tarball: string } | undefined;
    const failures: string[] = [];
    for (const version of lib.versions) {
      try {
        const out = execFileSync('npm', ['pack', `${lib.name}@${version}`, '--json', '--pack-destination', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        const [{ filename }] = JSON.parse(out) as { filename: string }[];
        packed = { version, tarball: join(dir, filename) };
        break;
      } catch (e) {
        failures.push(`${lib.name}@${version}: ${firstLine(e)}`);
      }
    }
    if (!packed) throw new Error(`npm pack failed: ${failures.join('; ')}`);
    const unpacked = join(dir, `${lib.name}-${packed.version}`);
    mkdirSync(unpacked, { recursive: true });
    execFileSync('tar', ['xzf', packed.tarball, '-C', unpacked, `package/${lib.inPackage}`]);
    copyFileSync(join(unpacked, 'package', lib.inPackage), join(dir, lib.file));
    versions.push(`${lib.name} ${packed.version}${packed.version !== lib.versions[0] ? ` (${lib.versions[0]} is not on npm)` : ''}`);
  }
  return { dir, versions };
}

/** A folder the user gives (--bertviz-libs) that holds the three files already. */
export function givenBertvizLibs(dir: string): BertvizLibs {
  for (const lib of LIBS) if (!existsSync(join(dir, lib.file))) throw new Error(`${dir}: no ${lib.file} (--bertviz-libs needs require.js, d3.min.js and jquery.min.js)`);
  return { dir, versions: [`require.js, d3.min.js, jquery.min.js from ${dir}`] };
}

function firstLine(e: unknown): string {
  const err = e as { stderr?: string; message?: string };
  const text = `${err.stderr ?? ''}\n${err.message ?? String(e)}`;
  return text.split('\n').find((l) => /error/i.test(l))?.trim() ?? text.trim().split('\n')[0];
}

/** The parts of head_view.py's 'return' page around the script: the require.js tag and the vis div. */
export interface HeadViewHtml {
  requireTag: string;
  visHtml: string;
}

/** Reads the page's HTML from head_view.py (no sentence B: one attention, so no filter select). */
export function headViewHtml(py: string, rootDivId: string): HeadViewHtml {
  const ret = py.indexOf("html_action == 'return'");
  const tag = ret < 0 ? null : /HTML\('(<script src="[^"]*require[^"]*"><\/script>)'\)/.exec(py.slice(ret));
  const vis = /vis_html = f"""([\s\S]*?)"""/.exec(py);
  if (!tag || !vis) throw new Error('head_view.py: no html_action == \'return\' with a require.js tag, or no vis_html: not the head_view.py this bench knows (BertViz 1.4.1)');
  if (!py.includes(`script = '\\n<script type="text/javascript">\\n' + html3.data + '\\n</script>\\n'`)) throw new Error('head_view.py: the script is not wrapped as BertViz 1.4.1 wraps it');
  const visHtml = vis[1].replace('{vis_id}', rootDivId).replace('{select_html}', '');
  if (/[{}]/.test(visHtml)) throw new Error(`head_view.py: vis_html has a field this bench does not fill: ${visHtml}`);
  return { requireTag: tag[1], visHtml };
}

/** head_view.js with its CDN paths (require.config's d3 and jquery) pointed at the local files. */
export function localHeadViewJs(js: string, libs: BertvizLibs): string {
  let replaced = 0;
  const out = js.replace(/(\b(d3|jquery)\s*:\s*)'https:\/\/[^']+'/g, (_, key: string, name: string) => {
    replaced++;
    return `${key}'${pathToFileURL(join(libs.dir, `${name}.min`)).href}'`;
  });
  if (replaced !== 2) throw new Error(`head_view.js: expected require.config paths for d3 and jquery on https, found ${replaced}`);
  if (!js.includes('PYTHON_PARAMS')) throw new Error('head_view.js: no PYTHON_PARAMS marker');
  return out;
}

/** A root div id as head_view() makes one: 'bertviz-' and a uuid4's hex. */
export function bertvizRootDivId(): string {
  return `bertviz-${randomUUID().replaceAll('-', '')}`;
}

/** BertViz's prettify_tokens (the default): Ġ and ▁ as spaces, </w> dropped. */
export function prettifyTokens(tokens: readonly string[]): string[] {
  return tokens.map((t) => t.replaceAll('Ġ', ' ').replaceAll('▁', ' ').replaceAll('</w>', ''));
}

/**
 * Writes the page to `path` (streamed: at 12 × 12 × 512 it is near 1.75 GB) and returns its size in
 * bytes: html1 + html2 + the script, as head_view.py joins them, with the require.js tag's src local.
 */
export function writeHeadViewPage(path: string, source: BertvizSource, libs: BertvizLibs, attention: HeadViewAttention, tokens: readonly string[], rootDivId: string): number {
  const { requireTag, visHtml } = headViewHtml(source.headViewPy, rootDivId);
  const tag = requireTag.replace(/src="[^"]*"/, `src="${pathToFileURL(join(libs.dir, 'require.js')).href}"`);
  const js = localHeadViewJs(source.headViewJs, libs).split('PYTHON_PARAMS');
  const pretty = prettifyTokens(tokens);
  const fd = openSync(path, 'w');
  let size = 0, pending: string[] = [], pendingLength = 0;
  const flush = () => { const b = Buffer.from(pending.join(''), 'utf8'); writeSync(fd, b); size += b.length; pending = []; pendingLength = 0; };
  const write = (s: string) => { pending.push(s); pendingLength += s.length; if (pendingLength > 1 << 22) flush(); };
  try {
    write(tag + visHtml + '\n<script type="text/javascript">\n');
    js.forEach((part, k) => {
      if (k > 0) for (const piece of headViewParamsJson(attention, pretty, rootDivId)) write(piece);
      write(part);
    });
    write('\n</script>\n');
    flush();
  } finally {
    closeSync(fd);
  }
  return size;
}
