// `attn run`'s flags for the analyses beyond the pattern, read into the core's request: --norms,
// --logit-lens, --target T [--contrast T], --ablate L.H[,L.H…] [--ablation zero|mean],
// --patch-from TEXT, --generate N. What the command line alone can tell is wrong is a usage error
// (exit 2); what needs the model (a token that is two, a head past its layers) is the run's.
import { ABLATION_MODES, type AnalysisRequest } from '../../core/model-analysis/types.js';
import { MAX_GENERATED } from '../../core/model-analysis/analyze-text.js';
import { choiceFlag, isBad, type Args, type Bad } from '../args.js';

/** The flags that ask for an analysis (any of them makes the run an analyzed one). */
export const ANALYSIS_FLAGS = ['--norms', '--logit-lens', '--target', '--contrast', '--ablate', '--ablation', '--patch-from', '--generate'];

/** The request, undefined when no analysis is asked for, or the usage error. Heads are checked against the model later (`ablate`). */
export function analysisFlags(args: Args): { request: AnalysisRequest; ablate?: string } | undefined | Bad {
  if (!ANALYSIS_FLAGS.some((f) => args.flags.has(f))) return undefined;
  const text = (name: string) => {
    const v = args.flags.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const request: AnalysisRequest = {};
  if (args.flags.has('--norms')) request.norms = true;
  if (args.flags.has('--logit-lens')) request.logitLens = true;
  const target = text('--target'), contrast = text('--contrast'), patchFrom = text('--patch-from'), ablate = text('--ablate');
  if (contrast !== undefined && target === undefined) return { error: '--contrast needs --target: the logit difference is target − contrast' };
  if (patchFrom !== undefined && (target === undefined || contrast === undefined)) return { error: '--patch-from needs --target and --contrast: patching scores their logit difference' };
  if (target !== undefined) request.target = target;
  if (contrast !== undefined) request.contrast = contrast;
  if (patchFrom !== undefined) request.patchFrom = patchFrom;
  const mode = choiceFlag(args, '--ablation', ABLATION_MODES);
  if (isBad(mode)) return mode;
  if (mode !== undefined && ablate === undefined) return { error: '--ablation says how to ablate the heads --ablate names: give --ablate L.H too' };
  const generate = text('--generate');
  if (generate !== undefined) {
    const count = Number(generate);
    if (!/^[0-9]+$/.test(generate) || count > MAX_GENERATED) return { error: `--generate takes a whole number of tokens from 0 to ${MAX_GENERATED}, got ${generate}` };
    if (patchFrom !== undefined) return { error: '--generate cannot be combined with --patch-from: patching compares two texts of the same tokens' };
    request.generate = count;
  }
  if (ablate !== undefined) request.ablate = { heads: [], labels: [], mode: mode ?? 'zero' };
  return { request, ...(ablate !== undefined ? { ablate } : {}) };
}
