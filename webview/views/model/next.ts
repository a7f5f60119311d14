// The next-token view of a model run (a model spec): the five tokens the model finds most likely to
// come after the text, each a bar as long as its probability, with p written beside it. An encoder
// (BERT) predicts no next token: the view shows instead its guess at each mask token of the text
// ([MASK], <mask>), five bars under a line naming the position; with no mask token in the text (or a
// checkpoint without its head) the view is absent with the run's sentence saying why. A file of saved
// attention has no run: the view says so instead of drawing nothing. The line under the title wraps
// to the width (in a 430 px panel it ran off the right edge, "(fo").
// With heads ablated, the ablated run's tokens come first, the run's own under them, and the note
// says how the target's logit difference changed, base → ablated.
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import type { NextToken } from '../../../src/core/checkpoint/types.js';
import { createSvg, emptyView, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { clip, fmt, textWidth } from '../../kit/format.js';
import type { RunAblation } from '../../../src/core/model-attention/data.js';
import { writtenToken } from './attribution.js';
import { NOTE_LINE, noteLines, tipOptions, tokenName, wrappedNote, type ModelViewOptions } from './common.js';

/** One list of bars: a label over it (a mask token's position) or none (the next token). */
interface Group {
  label?: string;
  tokens: NextToken[];
  /** What a bar's tooltip calls its token. */
  what: string;
}

const ROW_H = 28, LABEL_H = 24, GAP = 8, LEFT = 150;
/** The heading's bold 13 px measured as plain text of this size (13.2 let VS Code's bold run 20 px past the edge at 430 px). */
const BOLD_PX = 15;

const headLabel = (h: { layer: number; head: number }) => `${h.layer + 1}.${h.head + 1}`;

/**
 * "logit difference of " sat" 5.21 → 3.1 (base → ablated, −2.11)": a token named by its text where
 * the run's lists have it, else as the spec wrote it (a contrast is rarely among the five: " mat" read
 * "token 275"), else by its id.
 */
export function logitChange(a: RunAblation, next: readonly NextToken[], written: { target?: string; contrast?: string } = {}): string {
  const name = (id: number, as?: string) => {
    const t = next.find((x) => x.id === id) ?? a.next.find((x) => x.id === id);
    return t ? JSON.stringify(t.token) : as !== undefined ? writtenToken(as) : `token ${id}`;
  };
  // The spec's target and contrast are the ablation's only when the spec gave a target (else the run's top token is).
  const given = written.target !== undefined;
  const what = a.contrast === null ? `logit of ${name(a.target, given ? written.target : undefined)}` : `logit difference ${name(a.target, given ? written.target : undefined)} − ${name(a.contrast, given ? written.contrast : undefined)}`;
  const change = a.logitDiff - a.baseLogitDiff;
  return `${what} ${fmt(a.baseLogitDiff, 3)} → ${fmt(a.logitDiff, 3)} (base → ablated, ${change >= 0 ? '+' : '−'}${fmt(Math.abs(change), 3)})`;
}

/** How the note names the forward pass's numeric form. */
const PRECISION_NAMES = { f32: 'float32', f64: 'float64' } as const;

export function renderModelNext(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { theme } = options;
  const run = data.run;
  if (run?.note !== undefined && !run.masked?.length && run.next.length === 0) return emptyView(container, theme, options.width, 'next', `masked-token guess: ${run.note}`);
  const masked = run?.masked ?? [];
  if (!run || (run.next.length === 0 && masked.length === 0)) return emptyView(container, theme, options.width, 'next', 'next token: only a model run (a spec with "model" and "text") predicts one; this attention was read from a file');
  const tokens = data.header.tokenTexts;
  const encoder = masked.length > 0;
  // A step back through the generation: the run's own five are of its last position, not the one
  // shown; the model's prediction there is the logit lens's last layer at that position.
  const a = data.analyses;
  const stepped = !encoder && a !== undefined && a.shown < a.positions;
  const stepNext = stepped ? a.logitLens?.[a.logitLens.length - 1]?.[data.header.tokens - 1] : undefined;
  if (stepped && !stepNext) {
    return emptyView(container, theme, options.width, 'next', a.logitLensError !== undefined
      ? `next token at this step: ${a.logitLensError}`
      : `next token at this step: computing what the model predicts after ${tokenName(tokens, data.header.tokens - 1)} (a pass of the model again)…`);
  }
  const ablation = encoder || stepped ? undefined : run.ablation;
  const groups: Group[] = encoder
    ? masked.map((g) => ({ label: `at ${tokenName(tokens, g.position)}`, tokens: g.guesses, what: 'guess' }))
    : stepNext
      ? [{ tokens: stepNext, what: 'next token at this step' }]
      : ablation
      ? [{ label: `with ${ablation.heads.map(headLabel).join(', ')} ablated (${ablation.mode})`, tokens: ablation.next, what: 'next token of the ablated run' },
        { label: 'the run itself', tokens: run.next, what: 'next token' }]
      : [{ tokens: run.next, what: 'next token' }];
  const barMax = Math.max(120, Math.min(480, options.width - LEFT - 90));
  const width = LEFT + barMax + 90;
  const note = encoder
    ? `the masked-token head's softmax at each mask token, which sees the whole text on both sides (forward pass ${run.forwardMs.toFixed(0)} ms${run.precision ? ` in ${PRECISION_NAMES[run.precision]}` : ''})${run.note !== undefined ? `; ${run.note}` : ''}`
    : stepNext
      ? `after ${tokenName(tokens, data.header.tokens - 1)}, the model's prediction at this step of the generation (the logit lens's last layer)`
      : `after ${tokenName(tokens, data.header.tokens - 1)}, the softmax of the last position's logits (forward pass ${run.forwardMs.toFixed(0)} ms${run.precision ? ` in ${PRECISION_NAMES[run.precision]}` : ''})${ablation ? `; ${logitChange(ablation, run.next, data.analyses ?? {})}` : ''}`;
  const lines = noteLines(note, width - 16, ablation ? 4 : 3, theme.fontSize);
  const top = 64 + (lines.length - 1) * NOTE_LINE;
  const groupH = (g: Group) => (g.label ? LABEL_H : 0) + g.tokens.length * ROW_H + GAP;
  const height = top + groups.reduce((s, g) => s + groupH(g), 0) + 22;
  const title = encoder ? `The guesses at ${masked.length} mask token${masked.length === 1 ? '' : 's'}` : `The ${groups[groups.length - 1].tokens.length} most likely next tokens`;
  const svg = createSvg(container, theme, width, height, title, 'next');
  const heading = encoder ? 'the masked tokens' : ablation ? 'what comes next, with heads ablated' : 'what comes next';
  // The model's name gives way to the heading (at 430 px "with heads ablated" ran off the edge): cut,
  // or left to the hover when not even a few letters of it fit.
  const room = width - 16 - textWidth(`: ${heading}`, BOLD_PX);
  const model = room >= 48 ? clip(run.model, room, BOLD_PX) : '';
  const full = `${run.model}: ${heading}`;
  svg.append('text').attr('class', 'title').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(model ? `${model}: ${heading}` : heading)
    .call((t) => { if (model !== run.model) t.append('title').text(full); });
  wrappedNote(svg, theme, 8, 38, note, lines);
  let y = top;
  groups.forEach((group, gi) => {
    const g = svg.append('g').attr('transform', `translate(0,${y})`);
    let row = 0;
    if (group.label) {
      g.append('text').attr('class', 'mask-label').attr('x', 8).attr('y', 16).attr('font-weight', 'bold').text(clip(group.label, width - 16, 12));
      row = LABEL_H;
    }
    group.tokens.forEach((t, k) => {
      const at = row + k * ROW_H;
      g.append('text').attr('class', 'token').attr('x', LEFT - 8).attr('y', at + ROW_H / 2 + 4).attr('text-anchor', 'end').text(clip(JSON.stringify(t.token), LEFT - 16, 12));
      g.append('rect').attr('class', 'bar').attr('data-g', gi).attr('data-k', k).attr('x', LEFT).attr('y', at + 4).attr('height', ROW_H - 8)
        .attr('width', Math.max(1, t.p * barMax)).attr('fill', k === 0 ? theme.accent : theme.focus);
      g.append('text').attr('class', 'p').attr('x', LEFT + t.p * barMax + 6).attr('y', at + ROW_H / 2 + 4).text(`p = ${t.p.toFixed(4)}`);
    });
    y += groupH(group);
  });
  const notes = groups.flatMap((g) => [...(g.label ? [g.label] : []), ...g.tokens.map((t) => `${JSON.stringify(t.token)} ${t.p.toFixed(4)}`)]);
  const unwire = wireTips(svg.node()!, tipOptions(options), 'rect.bar', (el) => {
    const group = groups[Number(el.getAttribute('data-g'))];
    const t = group.tokens[Number(el.getAttribute('data-k'))];
    return { lines: [`${group.what} ${JSON.stringify(t.token)} (id ${t.id})${group.label ? `, ${group.label}` : ''}`, `p = ${t.p}`] };
  });
  return { svg: svg.node()!, notes, destroy: () => { unwire(); svg.remove(); } };
}
