// The logit lens of a model run: after each layer, every position's residual stream read through the
// model's final norm and output head, as if the model stopped there. Layers × positions, each cell
// the most likely token written in it and coloured by its p; the hover lists the five. The last row
// is the model's own prediction. Computed when this view first opens (a pass of the model again):
// until it comes, and for a file of saved attention, one line says why there is nothing to draw.
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { createSvg, emptyView, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { clip, textWidth } from '../../kit/format.js';
import { textOn } from '../../kit/colour.js';
import { rovingGrid, type GridItem } from '../../kit/keyboard.js';
import { repeatedWords } from '../../kit/token-names.js';
import { isGenerated, NOTE_LINE, noteLines, shown, tipOptions, tokenLabel, tokenName, wrappedNote, type ModelViewOptions } from './common.js';

const CELL_H = 22, MAX_W = 96, WRITE_AT = 28, LABEL_PX = 90, ANGLE = 60;
/**
 * The narrowest cell: one that holds a short token (the view scrolls sideways rather than write none),
 * down to one that only colours (its hover has the tokens) past WRITTEN_UP_TO positions.
 */
const MIN_W = 40, MIN_W_MANY = 16, WRITTEN_UP_TO = 256;
/** Room to the right of the last column for its slanted label (LABEL_PX · cos 60°). */
const RIGHT = Math.ceil(LABEL_PX * Math.cos((ANGLE * Math.PI) / 180)) + 8;
/** Most cells drawn (a long text keeps its last positions): 50,000 rects draw in well under a second. */
export const MAX_LENS_CELLS = 50_000;

/** Why the view has nothing to draw yet, or undefined. */
export function logitLensMissing(data: ModelViewData): string | undefined {
  if (!data.run) return 'logit lens: only a model run (a spec with "model" and "text") has one; this attention was read from a file';
  const a = data.analyses;
  if (a?.logitLensError !== undefined) return `logit lens: ${a.logitLensError}`;
  if (!a?.logitLens) return 'logit lens: computing what each layer predicts (a pass of the model again)…';
  if (a.logitLens.length !== data.header.layers) return `logit lens: ${a.logitLens.length} layers, not the attention's ${data.header.layers}`;
  return undefined;
}

export function renderModelLogitLens(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { theme } = options;
  const missing = logitLensMissing(data);
  if (missing) return emptyView(container, theme, options.width, 'logit-lens', missing);
  const lens = data.analyses!.logitLens!;
  const layers = lens.length;
  const tokens = data.header.tokenTexts;
  // The positions shown: those of the step shown (a prefix of the run), the last ones when too many.
  const end = Math.min(data.header.tokens, lens[0].length);
  const first = Math.max(0, end - Math.floor(MAX_LENS_CELLS / layers));
  const count = end - first;
  const left = textWidth(`after layer ${layers}`, 11) + 14;
  const cellW = Math.max(count > WRITTEN_UP_TO ? MIN_W_MANY : MIN_W, Math.min(MAX_W, Math.floor((options.width - left - RIGHT) / Math.max(1, count))));
  const width = Math.max(options.width, left + count * cellW + RIGHT);
  const note = `after each layer, the residual stream at each position through the final norm and the output head; colour: p of the top token; the last row is the model's own prediction${first > 0 ? `; the last ${count} of ${end} positions` : ''}`;
  // Up to five lines: in a 430 px panel three cut "the last row is the model's own prediction".
  const lines = noteLines(note, options.width - 16, 5, theme.fontSize);
  const labelH = Math.ceil(LABEL_PX * Math.sin((ANGLE * Math.PI) / 180)) + 10;
  const top = 50 + (lines.length - 1) * NOTE_LINE + labelH;
  const height = top + layers * CELL_H + 16;
  const svg = createSvg(container, theme, width, height, `Logit lens: ${layers} layers × ${count} positions`, 'logit-lens');
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(clip(`Logit lens: what each layer would predict (${data.run!.model})`, options.width - 16, 13.2));
  wrappedNote(svg, theme, 8, 36, note, lines);
  // Column labels, slanted so neighbours never touch; a repeated word carries its place, a generated one is italic.
  const repeated = repeatedWords(tokens);
  for (let k = 0; k < count; k++) {
    const i = first + k;
    const x = left + k * cellW + cellW / 2;
    const label = repeated.has(tokens[i]) ? `${shown(i)}. ${tokenLabel(tokens, i, LABEL_PX - 24, 11)}` : tokenLabel(tokens, i, LABEL_PX, 11);
    svg.append('text').attr('class', 'col-label').attr('data-token', i).attr('font-size', 11).attr('fill', theme.muted)
      .attr('font-style', isGenerated(tokens, i) ? 'italic' : null)
      .attr('transform', `translate(${x + 4},${top - 6}) rotate(-${ANGLE})`).text(label);
  }
  const grid = svg.append('g').attr('class', 'grid')
    .attr('aria-label', `${layers} layers × ${count} positions: the arrows move between cells, each says the five most likely tokens`);
  const items: GridItem[] = [];
  for (let layer = 0; layer < layers; layer++) {
    const y = top + layer * CELL_H;
    svg.append('text').attr('x', left - 6).attr('y', y + CELL_H / 2 + 4).attr('text-anchor', 'end').attr('font-size', 11).attr('fill', theme.muted)
      .text(`after layer ${shown(layer)}`);
    for (let k = 0; k < count; k++) {
      const i = first + k;
      const best = lens[layer][i]?.[0];
      const fill = best ? theme.seq(best.p) : theme.masked;
      const rect = grid.append('rect').attr('class', 'cell').attr('data-layer', layer).attr('data-token', i)
        .attr('x', left + k * cellW).attr('y', y).attr('width', cellW - 1).attr('height', CELL_H - 1).attr('fill', fill);
      if (options.interactive) items.push({ el: rect.node()!, row: layer, col: k });
      if (best && cellW >= WRITE_AT) {
        grid.append('text').attr('class', 'top-token').attr('x', left + k * cellW + cellW / 2).attr('y', y + CELL_H / 2 + 4).attr('text-anchor', 'middle')
          .attr('font-size', 10).attr('fill', textOn(fill)).attr('pointer-events', 'none').text(clip(JSON.stringify(best.token), cellW - 4, 10));
      }
    }
  }
  const unwire = wireTips(svg.node()!, tipOptions(options), 'rect.cell', (el) => {
    const layer = Number(el.getAttribute('data-layer')), i = Number(el.getAttribute('data-token'));
    const top5 = lens[layer]?.[i] ?? [];
    return { lines: [`after layer ${shown(layer)}, at ${tokenName(tokens, i)}`, ...top5.map((t) => `${JSON.stringify(t.token)} (id ${t.id}) p = ${t.p.toFixed(4)}`)] };
  });
  const unrove = options.interactive ? rovingGrid(grid.node()!, items, Math.max(0, items.length - 1)) : () => {};
  return { svg: svg.node()!, notes: [note], destroy: () => { unwire(); unrove(); svg.remove(); } };
}
