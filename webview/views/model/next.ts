// The next-token view of a model run (a model spec): the five tokens the model finds most likely to
// come after the text, each a bar as long as its probability, with p written beside it. A file of
// saved attention has no run: the view says so instead of drawing nothing. The line under the title
// wraps to the width (in a 430 px panel it ran off the right edge, "(fo").
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { createSvg, emptyView, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { clip } from '../../kit/format.js';
import { NOTE_LINE, noteLines, tipOptions, tokenName, wrappedNote, type ModelViewOptions } from './common.js';

export function renderModelNext(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { theme } = options;
  const run = data.run;
  if (!run || run.next.length === 0) return emptyView(container, theme, options.width, 'next', 'next token: only a model run (a spec with "model" and "text") predicts one; this attention was read from a file');
  const tokens = data.header.tokenTexts;
  const last = data.header.tokens - 1;
  const rowH = 28, left = 150;
  const barMax = Math.max(120, Math.min(480, options.width - left - 90));
  const width = left + barMax + 90;
  const note = `after ${tokenName(tokens, last)}, the softmax of the last position's logits (forward pass ${run.forwardMs.toFixed(0)} ms)`;
  const lines = noteLines(note, width - 16, 3, theme.fontSize);
  const top = 64 + (lines.length - 1) * NOTE_LINE, height = top + run.next.length * rowH + 30;
  const svg = createSvg(container, theme, width, height, `The ${run.next.length} most likely next tokens`, 'next');
  const model = clip(run.model, width - 140, 12);
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(`${model}: what comes next`)
    .call((t) => { if (model !== run.model) t.append('title').text(`${run.model}: what comes next`); });
  wrappedNote(svg, theme, 8, 38, note, lines);
  const g = svg.append('g').attr('transform', `translate(0,${top})`);
  run.next.forEach((t, k) => {
    const y = k * rowH;
    g.append('text').attr('class', 'token').attr('x', left - 8).attr('y', y + rowH / 2 + 4).attr('text-anchor', 'end').text(clip(JSON.stringify(t.token), left - 16, 12));
    g.append('rect').attr('class', 'bar').attr('data-k', k).attr('x', left).attr('y', y + 4).attr('height', rowH - 8)
      .attr('width', Math.max(1, t.p * barMax)).attr('fill', k === 0 ? theme.accent : theme.focus);
    g.append('text').attr('class', 'p').attr('x', left + t.p * barMax + 6).attr('y', y + rowH / 2 + 4).text(`p = ${t.p.toFixed(4)}`);
  });
  const notes = run.next.map((t) => `${JSON.stringify(t.token)} ${t.p.toFixed(4)}`);
  const unwire = wireTips(svg.node()!, tipOptions(options), 'rect.bar', (el) => {
    const t = run.next[Number(el.getAttribute('data-k'))];
    return { lines: [`next token ${JSON.stringify(t.token)} (id ${t.id})`, `p = ${t.p}`] };
  });
  return { svg: svg.node()!, notes, destroy: () => { unwire(); svg.remove(); } };
}
