// The `attn` command: compute, validate and render a spec. `run` takes its arguments and
// output streams as parameters, so tests call it directly; main.ts wires it to the process.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { analyze, formatProblem, hasErrors } from '../core/index.js';
import { DEFAULT_MAX_BYTES } from '../core/json-tree.js';
import { computeReport } from './compute-text.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `usage:
  attn compute FILE [--json]     every intermediate of the attention computation
  attn validate FILE...          check specs; prints FILE:LINE:COL: message per problem
  attn render FILE --view arcs|matrix|steps|quadrant|projection|compare [--out FILE.svg]
              [--input N] [--head N] [--token N]
options:
  --max-bytes N   refuse specs larger than N bytes (default ${DEFAULT_MAX_BYTES})
  --help, --version`;

const VIEWS = ['arcs', 'matrix', 'steps', 'quadrant', 'projection', 'compare'] as const;
type View = (typeof VIEWS)[number];

interface Args {
  command?: string;
  files: string[];
  flags: Map<string, string | true>;
}

const VALUED = new Set(['--view', '--out', '--input', '--head', '--token', '--max-bytes']);

function parseArgs(argv: readonly string[]): Args | string {
  const args: Args = { files: [], flags: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      if (VALUED.has(a)) {
        const v = argv[++i];
        if (v === undefined) return `${a} needs a value`;
        args.flags.set(a, v);
      } else if (['--json', '--help', '--version'].includes(a)) {
        args.flags.set(a, true);
      } else {
        return `unknown option ${a}`;
      }
    } else if (!args.command) {
      args.command = a;
    } else {
      args.files.push(a);
    }
  }
  return args;
}

/** Reads a spec file, refusing huge ones by their size before reading them into memory. */
function readSpecFile(file: string, maxBytes: number, io: Io): string | undefined {
  try {
    const st = statSync(file);
    if (st.isDirectory()) {
      io.err(`${file}: is a directory, expected a .attn.json file`);
      return undefined;
    }
    if (st.size > maxBytes) {
      io.err(`${file}:1:1: the spec is ${(st.size / 1048576).toFixed(1)} MB, over the ${(maxBytes / 1048576).toFixed(0)} MB limit: ` +
        'a spec is for small, readable examples; big tensors belong in a binary file');
      return undefined;
    }
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    io.err(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : `cannot read (${code ?? String(e)})`}`);
    return undefined;
  }
}

function intFlag(args: Args, name: string, fallback: number): number | string {
  const v = args.flags.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : `${name} takes a whole number, got ${String(v)}`;
}

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.err(`attn: ${args}\n${USAGE}`);
    return 2;
  }
  if (args.flags.has('--help') || !args.command) {
    (args.command || args.flags.has('--help') ? io.out : io.err)(USAGE);
    return args.flags.has('--help') ? 0 : 2;
  }
  if (args.flags.has('--version')) {
    io.out('attn 0.1.0');
    return 0;
  }
  const maxBytes = intFlag(args, '--max-bytes', DEFAULT_MAX_BYTES);
  if (typeof maxBytes === 'string') {
    io.err(`attn: ${maxBytes}`);
    return 2;
  }
  switch (args.command) {
    case 'validate': return validate(args, maxBytes, io);
    case 'compute': return compute(args, maxBytes, io);
    case 'render': return render(args, maxBytes, io);
    default:
      io.err(`attn: unknown command "${args.command}"\n${USAGE}`);
      return 2;
  }
}

function validate(args: Args, maxBytes: number, io: Io): number {
  if (args.files.length === 0) {
    io.err(`attn validate: name at least one spec file\n${USAGE}`);
    return 2;
  }
  let failed = false;
  for (const file of args.files) {
    const text = readSpecFile(file, maxBytes, io);
    if (text === undefined) { failed = true; continue; }
    const { problems } = analyze(text, { maxBytes });
    for (const p of problems) io.err(formatProblem(file, text, p));
    if (problems.length > 0) failed = true;
    else io.out(`${file}: ok`);
  }
  return failed ? 1 : 0;
}

/** Reads and computes one file, printing its problems; undefined when it cannot be computed. */
function analyzeFile(args: Args, maxBytes: number, io: Io, command: string) {
  if (args.files.length !== 1) {
    io.err(`attn ${command}: name exactly one spec file\n${USAGE}`);
    return undefined;
  }
  const file = args.files[0];
  const text = readSpecFile(file, maxBytes, io);
  if (text === undefined) return undefined;
  const analysis = analyze(text, { maxBytes });
  for (const p of analysis.problems) io.err(formatProblem(file, text, p));
  if (hasErrors(analysis.problems) || !analysis.json) return undefined;
  return { file, json: analysis.json };
}

function compute(args: Args, maxBytes: number, io: Io): number {
  const done = analyzeFile(args, maxBytes, io, 'compute');
  if (!done) return 1;
  io.out(args.flags.has('--json') ? JSON.stringify(done.json, null, 2) : computeReport(done.json));
  return 0;
}

async function render(args: Args, maxBytes: number, io: Io): Promise<number> {
  const view = args.flags.get('--view');
  if (typeof view !== 'string' || !(VIEWS as readonly string[]).includes(view)) {
    io.err(`attn render: --view must be one of ${VIEWS.join(', ')}`);
    return 2;
  }
  const picks = { input: intFlag(args, '--input', 0), head: intFlag(args, '--head', 0), token: intFlag(args, '--token', -1) };
  for (const v of Object.values(picks)) if (typeof v === 'string') { io.err(`attn render: ${v}`); return 2; }
  const done = analyzeFile(args, maxBytes, io, 'render');
  if (!done) return 1;
  // jsdom is loaded only here: compute and validate stay fast to start.
  const { renderSvg } = await import('./render.js');
  const svg = renderSvg(done.json, view as View, picks as { input: number; head: number; token: number });
  const out = args.flags.get('--out');
  if (typeof out === 'string') {
    writeFileSync(out, svg);
    io.out(`wrote ${out}`);
  } else {
    io.out(svg);
  }
  return 0;
}
