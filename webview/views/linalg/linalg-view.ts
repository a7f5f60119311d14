// What the Spectrum, Heads and Covariance views do first: find the linear-algebra numbers in the
// result, or say why there are none (still being worked out, or too large for the panel). A refusal
// is a picture of its own, wrapped to the panel's width (one line ran off the edge at 626 px, its
// advice out of sight), with the command that computes the numbers outside the panel.
import type { AttentionData } from '../../../src/core/result/attention-data.js';
import type { LinalgJson } from '../../../src/core/result/linalg-json.js';
import { wrapLines } from '../../kit/format.js';
import type { Theme } from '../../kit/colour.js';
import { createSvg, emptyView, type G, type Svg, type ViewHandle, type ViewOptions } from '../../kit/view.js';

/** What each view would show, said under a refusal so the learner knows what the command gives. */
const WHAT: Record<string, string> = {
  spectrum: 'the singular values of W_Q, W_K, W_V, of the QK circuit W_Q·W_Kᵀ and of the OV circuit, with condition numbers and effective ranks',
  heads: 'how much the heads\' W_Q, W_K and W_V subspaces overlap',
  covariance: 'the covariance of each input\'s embeddings: redundant feature pairs and the variance each principal direction explains',
};

/** Lines of muted text wrapped to `px`, every line whole (a word too long is cut, its text in the hover); returns the height used. */
export function wrappedText(g: G | Svg, theme: Theme, x: number, y: number, text: string, px: number, cls: string, maxLines = 6, size = theme.fontSize): number {
  const lines = wrapLines(text, px, size, maxLines);
  const lineH = Math.round(size * 1.35);
  const t = (g as G).append('text').attr('class', cls).attr('x', x).attr('y', y).attr('fill', theme.muted).attr('font-size', size);
  lines.forEach((line, k) => t.append('tspan').attr('x', x).attr('dy', k === 0 ? 0 : lineH).text(line));
  if (lines.join(' ') !== text) t.append('title').text(text);
  return lines.length * lineH;
}

/** A sentence instead of a picture, wrapped to the panel's width (emptyView's one line ran off the edge). */
export function messageView(container: HTMLElement, options: ViewOptions, view: string, message: string): ViewHandle {
  const theme = options.theme, pad = 12;
  const width = Math.max(options.width, 300);
  const lines = wrapLines(message, width - 2 * pad, theme.fontSize, 6).length;
  const svg = createSvg(container, theme, width, 24 + lines * Math.round(theme.fontSize * 1.35), message, view);
  wrappedText(svg, theme, pad, 22, message, width - 2 * pad, 'message');
  return { svg: svg.node()!, notes: [message], destroy: () => svg.remove() };
}

/** The refusal as a readable picture: the reason wrapped, then what the command computes and the command itself. */
export function refusalView(container: HTMLElement, options: ViewOptions, view: string, reason: string): ViewHandle {
  const theme = options.theme, fs = theme.fontSize, pad = 12;
  const width = Math.max(options.width, 300);
  const px = width - 2 * pad;
  // The panel's page names the spec's file (data-file-name on its root): the command is then exact.
  const file = (container as Element).closest?.('[data-file-name]')?.getAttribute('data-file-name') || 'FILE.attn.json';
  const command = `attn analyze ${/\s/.test(file) ? `"${file}"` : file}`;
  const say = `To see them, run attn analyze in a terminal, in the spec's folder: it computes ${WHAT[view] ?? 'these numbers'} at any size (add --json for every number):`;
  // Measure first (a throwaway group), then draw at the height found.
  const lineH = Math.round(fs * 1.35);
  const reasonLines = wrapLines(`Too large for the panel: ${reason}.`, px, fs, 6).length;
  const sayLines = wrapLines(say, px, fs, 6).length;
  const height = 16 + (reasonLines + sayLines) * lineH + 16 + fs + 24;
  const svg = createSvg(container, theme, width, height, `${view}: too large for the panel`, view);
  let y = 22;
  y += wrappedText(svg, theme, pad, y, `Too large for the panel: ${reason}.`, px, 'refusal');
  y += 8;
  y += wrappedText(svg, theme, pad, y, say, px, 'refusal-what');
  // A file name too long for the line is cut, whole in the hover (and in the accessible name).
  const room = Math.max(8, Math.floor(px / (0.6 * fs)));
  const shown = Array.from(command).length <= room ? command : `${Array.from(command).slice(0, room - 1).join('')}…`;
  const c = svg.append('text').attr('class', 'command').attr('x', pad).attr('y', y + 8).attr('font-family', theme.mono).attr('fill', theme.fg).text(shown);
  if (shown !== command) c.append('title').text(command);
  return { svg: svg.node()!, notes: [reason], destroy: () => svg.remove() };
}

/** The numbers, or a view with a sentence: "Working out the spectra…", or the reason they are too large. */
export function linalgOrSay(container: HTMLElement, data: AttentionData, options: ViewOptions, view: string, what: string): LinalgJson | ViewHandle {
  const l = data.linalg;
  if (!l) return emptyView(container, options.theme, options.width, view, `Working out the ${what}…`);
  if (l.tooBig) return refusalView(container, options, view, l.tooBig.replace(/[:;,]? ?run attn analyze on it\.?$/, ''));
  return l;
}

export const isHandle = (x: LinalgJson | ViewHandle): x is ViewHandle => 'svg' in x;
