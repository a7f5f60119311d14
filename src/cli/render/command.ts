// `attn render FILE --view NAME`: reads the flags and the spec, checks the input, head and token
// asked for against it, and writes the view's SVG (drawn by render.ts). A model's attention file,
// or a spec that references one with a model view, goes to render-model.ts. jsdom and the views
// are loaded only here, so compute and validate stay fast to start.
import { MATRIX_MODES, MODEL_VIEW_NAMES, ROLES, THEME_KINDS, VIEW_NAMES, type ViewName } from '../../core/vocabulary.js';
import { ATTENTION_FILE_NAME } from '../../core/tensors/attention-file.js';
import { choiceFlag, intFlag, isBad, type Args, type Io } from '../args.js';
import { analyzeFile } from '../spec-input.js';
import { inputReplacedBy, sameFile, writeWhole } from '../outputs.js';
import { printable } from '../terminal.js';
import type { RenderOptions } from './spec-views.js';
import { isStdin, readStdin } from '../stdin-input.js';

export async function renderCommand(args: Args, maxBytes: number, io: Io): Promise<number> {
  // Model files, and specs that reference one when a model view is asked for.
  const modelView = (MODEL_VIEW_NAMES as readonly string[]).includes(String(args.flags.get('--view')));
  // Standard input has no name to go by: what was read says which views apply.
  const stdin = args.files.length === 1 && isStdin(args.files[0]) ? readStdin(maxBytes) : undefined;
  if (stdin && 'error' in stdin) { io.err(`attn render: ${printable(stdin.error)}`); return 1; }
  if (stdin?.kind === 'model') {
    if (args.flags.has('--view') && !modelView) {
      io.err(`attn render: standard input holds a model's attention (${stdin.format}): --view must be one of ${MODEL_VIEW_NAMES.join(', ')}`);
      return 2;
    }
    return (await import('./model-views.js')).renderModelCommand(args, io, stdin.bytes);
  }
  if (args.files.length === 1 && (ATTENTION_FILE_NAME.test(args.files[0]) || (modelView && /\.json$/i.test(args.files[0])))) {
    return (await import('./model-views.js')).renderModelCommand(args, io);
  }
  const view = args.flags.get('--view');
  if (typeof view !== 'string' || !(VIEW_NAMES as readonly string[]).includes(view)) {
    const what = stdin ? 'standard input holds a spec\'s text, so ' : '';
    const models = modelView && stdin ? ` (the model views draw a model's attention file, or a spec on disk: attn render FILE.attn.json --view ${String(args.flags.get('--view'))})` : '';
    io.err(`attn render: ${what}--view must be one of ${VIEW_NAMES.join(', ')}${models}`);
    return 2;
  }
  const input = intFlag(args, '--input', 0);
  const head = args.flags.get('--head') === 'all' ? 'all' : intFlag(args, '--head', -1);
  const token = intFlag(args, '--token', -1);
  const width = intFlag(args, '--width', 0);
  const theme = choiceFlag(args, '--theme', THEME_KINDS);
  const matrixMode = choiceFlag(args, '--show', MATRIX_MODES);
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
  const read: string[] = [];
  const done = analyzeFile(args, maxBytes, io, 'render', read, stdin?.kind === 'spec' ? stdin.text : undefined);
  if (!done) return 1;
  const replaced = typeof out === 'string' ? inputReplacedBy(out, read) : undefined;
  if (replaced !== undefined) {
    io.err(`attn render: --out ${printable(String(out))} is ${printable(replaced)}, a file the spec reads; name another file`);
    return 2;
  }
  const inputCount = done.data.inputs.length, headCount = done.data.inputs[0].heads.length;
  if (input >= inputCount) { io.err(`attn render: --input ${input}, but the spec has ${inputCount} input(s), numbered from 0`); return 2; }
  if (head !== 'all' && head >= headCount) { io.err(`attn render: --head ${head}, but the spec has ${headCount} head(s), numbered from 0`); return 2; }
  const tokenCount = done.data.inputs[input].tokens.length;
  if (token >= tokenCount) { io.err(`attn render: --token ${token}, but input ${input} has ${tokenCount} token(s), numbered from 0`); return 2; }
  // jsdom is loaded only here: compute and validate stay fast to start.
  const { renderSvg, viewOverBudget } = await import('./spec-views.js');
  const options: RenderOptions = {
    input, token,
    ...(head === 'all' || head >= 0 ? { head } : {}),
    ...(width > 0 ? { width } : {}),
    ...(theme ? { theme } : {}),
    ...(matrixMode ? { matrixMode } : {}),
    ...(projection ? { projection } : {}),
  };
  const costly = viewOverBudget(done.data, view as ViewName, options);
  if (costly) { io.err(`attn render: ${costly}`); return 1; }
  const svg = renderSvg(done.data, view as ViewName, options);
  if (typeof out === 'string') {
    const failed = writeWhole(out, [svg]);
    if (failed) {
      io.err(`attn render: cannot write ${printable(out)} (${failed})`);
      return 1;
    }
    io.out(`wrote ${printable(out)}`);
  } else {
    io.out(svg);
  }
  return 0;
}
