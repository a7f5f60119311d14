// The command line as `attn` reads it: what it may hold (USAGE, printed by --help and after a
// command line it cannot read), and how it is read into a command, its files and its flags (some
// take a value). Every command takes the same three things (the arguments, the spec byte budget,
// the output streams, which carry the second thread of a big compute), so run.ts can dispatch by
// name and tests can call run() with streams of their own. USAGE is here, not in run.ts, so that
// the commands print it without an import cycle; its lists of names (views, themes, modes, roles)
// come from vocabulary.ts.
import type { HeadsHelper } from '../core/attention/attention.js';
import { DEFAULT_MAX_BYTES } from '../core/json/json-tree.js';
import { FAMILY_NAMES } from '../core/checkpoint/families/index.js';
import { MATRIX_MODES, MODEL_VIEW_NAMES, ROLES, RUN_VIEW_NAMES, THEME_KINDS, VIEW_NAMES } from '../core/vocabulary.js';

/** The views `attn render` draws from an attention file: the model views but the next-token one, which needs a model run. */
const FILE_VIEWS = MODEL_VIEW_NAMES.filter((v) => !RUN_VIEW_NAMES.includes(v));

export const USAGE = `usage:
  attn compute FILE [--json]     every intermediate of the attention computation
  attn validate FILE...          check specs; prints FILE:LINE:COL: [warning: ]path: message per problem
  attn analyze FILE [--json]     singular values, QK and OV circuits, head overlap, covariance
  attn inspect FILE [--json] [--tensor NAME] [--input N]
                                 a model's attention (.safetensors, .npy, .npz, or a spec's own): every head's statistics, rollout
  attn train FILE [--steps N] [--json]
                                 gradient descent on the spec's "train" section: the loss at every step, the learnt W
  attn render FILE --view ${VIEW_NAMES.join('|')}
              [--out FILE.svg] [--input N] [--head N|all] [--token N] [--width PX]
              [--theme ${THEME_KINDS.join('|')}] [--show ${MATRIX_MODES.join('|')}] [--matrix ${ROLES.join('|')}]
  attn render FILE.safetensors|.npy|.npz --view ${FILE_VIEWS.join('|')} [--layer L] [--head H] [--token N]
              [--stat NAME] [--sort] [--softmax] [--tensor NAME] [--out FILE.svg|FILE.png] [--html FILE.html]
  attn run DIR (--text T | --text-file F) [--max-tokens N] [--precision f32|f64] [--json] [--out FILE.safetensors]
                                 run a model folder (${FAMILY_NAMES.join(', ')}): every head's attention, the next tokens
              [--norms] [--logit-lens] [--target T [--contrast T]] [--ablate L.H[,L.H…] [--ablation zero|mean]]
              [--patch-from TEXT] [--generate N]
                                 what each head writes (‖α v W_O‖), what each layer predicts, each part's logit
                                 for T (− the contrast's), the run with heads switched off, patching from another
                                 text, N greedy tokens; T is a token as text or its id; L.H counts from 1
FILE may be - for standard input.
options:
  --max-bytes N   refuse specs larger than N bytes (default ${DEFAULT_MAX_BYTES})
  --no-cache      attn run: neither read nor write the tokenizer's cache (ATTN_CACHE_DIR=off does the same;
                  ATTN_CACHE_DIR=DIR moves it from $XDG_CACHE_HOME/attention-lens or ~/.cache/attention-lens)
  --help, --version`;


export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** A second thread for half of a big spec's heads (main.ts passes one; tests in-process pass none). */
  readonly helper?: HeadsHelper;
}

export interface Args {
  command?: string;
  files: string[];
  flags: Map<string, string | true>;
}

/** One command: its exit code (0 done, 1 the input is at fault, 2 the command line is). */
export type Command = (args: Args, maxBytes: number, io: Io) => number | Promise<number>;

const VALUED = new Set(['--view', '--out', '--input', '--head', '--token', '--width', '--theme', '--show', '--matrix', '--max-bytes', '--steps', '--tensor', '--layer', '--html', '--stat', '--text', '--text-file', '--max-tokens', '--precision', '--target', '--contrast', '--ablate', '--ablation', '--patch-from', '--generate']);
const SWITCHES = new Set(['--json', '--help', '--version', '--sort', '--softmax', '--no-cache', '--norms', '--logit-lens']);

/** The arguments, or why they cannot be read. */
export function parseArgs(argv: readonly string[]): Args | string {
  const args: Args = { files: [], flags: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      if (VALUED.has(a)) {
        const v = argv[++i];
        if (v === undefined) return `${a} needs a value`;
        args.flags.set(a, v);
      } else if (SWITCHES.has(a)) {
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

/** A flag whose value is wrong, with the sentence that says so. */
export interface Bad { error: string }
export const isBad = (v: unknown): v is Bad => typeof v === 'object' && v !== null && 'error' in v;

/** A flag that takes a whole number ≥ 0; `fallback` when absent. */
export function intFlag(args: Args, name: string, fallback: number): number | Bad {
  const v = args.flags.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : { error: `${name} takes a whole number, got ${String(v)}` };
}

/** A flag that must be one of a few words; undefined when absent. */
export function choiceFlag<T extends string>(args: Args, name: string, choices: readonly T[]): T | undefined | Bad {
  const v = args.flags.get(name);
  if (v === undefined) return undefined;
  return (choices as readonly unknown[]).includes(v) ? (v as T) : { error: `${name} must be one of ${choices.join(', ')}` };
}
