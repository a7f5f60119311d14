// The `attn` command: compute, validate and render a spec. `run` takes its arguments and
// output streams as parameters, so tests call it directly; main.ts wires it to the process.
import { existsSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { folderFiles, type TensorFiles } from '../core/files/spec-files.js';
import { analyze, formatProblem, hasErrors, readSpec } from '../core/index.js';
import { stepsProblem, trainJson, trainReport } from './train.js';
import { train } from '../core/train/descent.js';
import { analyzeOverLimit, analyzeSpec } from '../core/linalg/analyze.js';
import { analyzeReport } from './analyze.js';
import type { Spec } from '../core/spec/spec.js';
import { DEFAULT_MAX_BYTES } from '../core/json/json-tree.js';
import { readSpecFile } from './read-file.js';
import { printable, printableJson } from './terminal.js';
import { computeReport } from './compute-text.js';
import { VIEW_NAMES, type ViewName } from '../protocol/panel.js';
import { MODEL_VIEW_NAMES } from '../core/vocabulary.js';
import { inspectCommand } from './inspect.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `usage:
  attn compute FILE [--json]     every intermediate of the attention computation
  attn validate FILE...          check specs; prints FILE:LINE:COL: [warning: ]path: message per problem
  attn analyze FILE [--json]     singular values, QK and OV circuits, head overlap, covariance
  attn inspect FILE [--json] [--tensor NAME]
                                 a model's attention (.safetensors, .npy, .npz): every head's statistics, rollout
  attn train FILE [--steps N] [--json]
                                 gradient descent on the spec's "train" section: the loss at every step, the learnt W
  attn render FILE --view arcs|matrix|steps|quadrant|projection|compare|training|geometry [--out FILE.svg]
              [--input N] [--head N|all] [--token N] [--width PX]
              [--theme light|dark|hc-dark|hc-light] [--show scores|scaled|weights|cosine] [--matrix wq|wk|wv|wo]
  attn render FILE.safetensors|.npy|.npz --view model|head|finder|rollout [--layer L] [--head H] [--token N]
              [--stat NAME] [--sort] [--softmax] [--tensor NAME] [--out FILE.svg|FILE.png] [--html FILE.html]
FILE may be - for standard input.
options:
  --max-bytes N   refuse specs larger than N bytes (default ${DEFAULT_MAX_BYTES})
  --help, --version`;

const VIEWS = VIEW_NAMES;
const MAX_MAX_BYTES = 256 * 1024 * 1024;
type View = ViewName;

interface Args {
  command?: string;
  files: string[];
  flags: Map<string, string | true>;
}

const VALUED = new Set(['--view', '--out', '--input', '--head', '--token', '--width', '--theme', '--show', '--matrix', '--max-bytes', '--steps', '--tensor', '--layer', '--html', '--stat']);
const THEMES = ['light', 'dark', 'hc-dark', 'hc-light'] as const;
const MODES = ['scores', 'scaled', 'weights', 'cosine'] as const;
const ROLES = ['wq', 'wk', 'wv', 'wo'] as const;

function parseArgs(argv: readonly string[]): Args | string {
  const args: Args = { files: [], flags: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      if (VALUED.has(a)) {
        const v = argv[++i];
        if (v === undefined) return `${a} needs a value`;
        args.flags.set(a, v);
      } else if (['--json', '--help', '--version', '--sort', '--softmax'].includes(a)) {
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

/** Reads a spec file within the byte budget; prints why not and returns undefined when it cannot. */

interface Bad { error: string }
const isBad = (v: unknown): v is Bad => typeof v === 'object' && v !== null && 'error' in v;

function intFlag(args: Args, name: string, fallback: number): number | Bad {
  const v = args.flags.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : { error: `${name} takes a whole number, got ${String(v)}` };
}

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.err(`attn: ${printable(args)}\n${USAGE}`);
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
  if (isBad(maxBytes)) {
    io.err(`attn: ${printable(maxBytes.error)}`);
    return 2;
  }
  // A spec is read into one string: past this size neither the string nor the JSON tree would fit.
  if (maxBytes > MAX_MAX_BYTES) {
    io.err(`attn: --max-bytes ${maxBytes} is more than ${MAX_MAX_BYTES} (256 MB), the largest spec attn can hold`);
    return 2;
  }
  switch (args.command) {
    case 'validate': return validate(args, maxBytes, io);
    case 'compute': return compute(args, maxBytes, io);
    case 'render': return render(args, maxBytes, io);
    case 'train': return trainCommand(args, maxBytes, io);
    case 'analyze': return analyzeCommand(args, maxBytes, io);
    case 'inspect': return inspectCommand(args.files, { json: args.flags.has('--json'), maxBytes, ...(typeof args.flags.get('--tensor') === 'string' ? { tensor: args.flags.get('--tensor') as string } : {}) }, io);
    default:
      io.err(`attn: unknown command ${printable(JSON.stringify(args.command))}\n${USAGE}`);
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
    const { problems } = analyze(text, { maxBytes, files: filesBeside(file) });
    for (const p of problems) io.err(printable(formatProblem(file, text, p)));
    if (problems.length > 0) failed = true;
    else io.out(`${printable(file)}: ok`);
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
  // Only compute prints arrays of rows; render reads the typed model.
  const analysis = analyze(text, { maxBytes, json: command === 'compute', linalg: command === 'render', files: filesBeside(file) });
  for (const p of analysis.problems) io.err(printable(formatProblem(file, text, p)));
  if (analysis.reference) {
    io.err(`attn ${command}: ${printable(file)} shows a model's attention from ${printable(analysis.reference.file)}: use attn inspect ${printable(file)}, or attn render with --view model, head, finder or rollout`);
    return undefined;
  }
  if (hasErrors(analysis.problems) || !analysis.data) return undefined;
  return { file, data: analysis.data, json: analysis.json };
}

function compute(args: Args, maxBytes: number, io: Io): number {
  const done = analyzeFile(args, maxBytes, io, 'compute');
  if (!done?.json) return 1;
  io.out(args.flags.has('--json') ? printableJson(JSON.stringify(done.json, null, 2)) : computeReport(done.json));
  return 0;
}

/** A flag that must be one of a few words; undefined when absent. */
function choiceFlag<T extends string>(args: Args, name: string, choices: readonly T[]): T | undefined | Bad {
  const v = args.flags.get(name);
  if (v === undefined) return undefined;
  return (choices as readonly unknown[]).includes(v) ? (v as T) : { error: `${name} must be one of ${choices.join(', ')}` };
}

async function render(args: Args, maxBytes: number, io: Io): Promise<number> {
  // Model files, and specs that reference one when a model view is asked for.
  const modelView = (MODEL_VIEW_NAMES as readonly string[]).includes(String(args.flags.get('--view')));
  if (args.files.length === 1 && (/\.(safetensors|npy|npz)$/i.test(args.files[0]) || (modelView && /\.json$/i.test(args.files[0])))) {
    return (await import('./render-model.js')).renderModelCommand(args.files, args.flags, io);
  }
  const view = args.flags.get('--view');
  if (typeof view !== 'string' || !(VIEWS as readonly string[]).includes(view)) {
    io.err(`attn render: --view must be one of ${VIEWS.join(', ')}`);
    return 2;
  }
  const input = intFlag(args, '--input', 0);
  const head = args.flags.get('--head') === 'all' ? 'all' : intFlag(args, '--head', -1);
  const token = intFlag(args, '--token', -1);
  const width = intFlag(args, '--width', 0);
  const theme = choiceFlag(args, '--theme', THEMES);
  const matrixMode = choiceFlag(args, '--show', MODES);
  const projection = choiceFlag(args, '--matrix', ROLES);
  if (isBad(input) || isBad(head) || isBad(token) || isBad(width) || isBad(theme) || isBad(matrixMode) || isBad(projection)) {
    io.err(`attn render: ${printable([input, head, token, width, theme, matrixMode, projection].find(isBad)?.error ?? '')}`);
    return 2;
  }
  const out = args.flags.get('--out');
  if (typeof out === 'string' && args.files.length === 1 && sameFile(out, args.files[0])) {
    io.err(`attn render: --out ${printable(out)} is the spec itself; name another file`);
    return 2;
  }
  const done = analyzeFile(args, maxBytes, io, 'render');
  if (!done) return 1;
  const inputCount = done.data.inputs.length, headCount = done.data.inputs[0].heads.length;
  if (input >= inputCount) { io.err(`attn render: --input ${input}, but the spec has ${inputCount} input(s), numbered from 0`); return 2; }
  if (head !== 'all' && head >= headCount) { io.err(`attn render: --head ${head}, but the spec has ${headCount} head(s), numbered from 0`); return 2; }
  const tokenCount = done.data.inputs[input].tokens.length;
  if (token >= tokenCount) { io.err(`attn render: --token ${token}, but input ${input} has ${tokenCount} token(s), numbered from 0`); return 2; }
  // jsdom is loaded only here: compute and validate stay fast to start.
  const { renderSvg } = await import('./render.js');
  const svg = renderSvg(done.data, view as View, {
    input, token,
    ...(head === 'all' || head >= 0 ? { head } : {}),
    ...(width > 0 ? { width } : {}),
    ...(theme ? { theme } : {}),
    ...(matrixMode ? { matrixMode } : {}),
    ...(projection ? { projection } : {}),
  });
  if (typeof out === 'string') {
    try {
      writeFileSync(out, svg);
    } catch (e) {
      io.err(`attn render: cannot write ${printable(out)} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      return 1;
    }
    io.out(`wrote ${printable(out)}`);
  } else {
    io.out(svg);
  }
  return 0;
}

/** The tensor files a spec names are read from its folder; a spec from standard input has none. */
function filesBeside(file: string): TensorFiles | undefined {
  return file === '-' ? undefined : folderFiles(dirname(resolve(file)));
}

/** True when two paths name one file (through symbolic and hard links too), so an export never overwrites its spec. */
function sameFile(a: string, b: string): boolean {
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));
  try {
    if (existsSync(a) && existsSync(b)) {
      const sa = statSync(a), sb = statSync(b);
      if (sa.dev === sb.dev && sa.ino === sb.ino) return true;
    }
    return real(a) === real(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** Reads the one spec a command takes: the spec, or the exit code after printing why not. */
function readOneSpec(args: Args, maxBytes: number, io: Io, command: string): { file: string; spec: Spec } | number {
  if (args.files.length !== 1) { io.err(`attn ${command}: name exactly one spec file\n${USAGE}`); return 2; }
  const file = args.files[0];
  const text = readSpecFile(file, maxBytes, io);
  if (text === undefined) return 1;
  const { spec, problems } = readSpec(text, { maxBytes, files: filesBeside(file) });
  for (const p of problems) io.err(printable(formatProblem(file, text, p)));
  if (!spec || hasErrors(problems)) return 1;
  return { file, spec };
}

function trainCommand(args: Args, maxBytes: number, io: Io): number {
  const steps = intFlag(args, '--steps', -1);
  if (isBad(steps)) { io.err(`attn train: ${printable(steps.error)}`); return 2; }
  const read = readOneSpec(args, maxBytes, io, 'train');
  if (typeof read === 'number') return read;
  const { file, spec } = read;
  if (!spec.train) { io.err(`${printable(file)}: no "train" section: add { "head", "learn", "targets", "steps", "rate" } to say what to learn`); return 1; }
  const n = steps >= 0 ? steps : spec.train.steps;
  const tooMuch = stepsProblem(spec, spec.train, n);
  if (tooMuch) { io.err(`attn train: ${tooMuch}`); return 2; }
  const run = train(spec, spec.train, { steps: n });
  io.out(args.flags.has('--json') ? JSON.stringify(trainJson(run), null, 2) : trainReport(spec, spec.train, run));
  if (run.stoppedAt !== undefined) {
    io.err(`attn train: the numbers overflowed at step ${run.stoppedAt} (rate ${spec.train.rate} is too large): stopped, with the last finite weights`);
    return 1;
  }
  return 0;
}

function analyzeCommand(args: Args, maxBytes: number, io: Io): number {
  const read = readOneSpec(args, maxBytes, io, 'analyze');
  if (typeof read === 'number') return read;
  const tooBig = analyzeOverLimit(read.spec);
  if (tooBig) { io.err(`attn analyze: ${tooBig}`); return 2; }
  const result = analyzeSpec(read.spec);
  // Embeddings near the largest double make the covariance overflow: say so rather than print Infinity.
  if (!allFinite(result)) {
    io.err(`${printable(read.file)}: the numbers grow too large to analyse (a covariance or singular value overflows): use smaller embeddings or weights`);
    return 1;
  }
  io.out(args.flags.has('--json') ? printableJson(JSON.stringify(result, null, 2)) : analyzeReport(result));
  return 0;
}

/** True when every number inside a value is finite (nulls that mean "none" are fine). */
function allFinite(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(allFinite);
  if (v && typeof v === 'object') return Object.values(v).every(allFinite);
  return true;
}
