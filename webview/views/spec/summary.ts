// The summary strip: the shapes (n, d_model, d_k, d_v, heads) and how many learnable numbers the
// spec holds. The full-size comparison (512×64 × 8 × 6 × 2) lives under the projection diagram,
// next to the matrix it is about.
import type { AttentionData } from '../../../src/core/result/attention-data.js';
import { fmt, textWidth, thousands } from '../../kit/format.js';
import { listSome } from '../../../src/core/json/quote.js';
import { clampIndex, createSvg, type ViewFn } from '../../kit/view.js';

export interface SummaryItem {
  label: string;
  value: string;
  /** Muted words after the value, when the number alone would mislead. */
  note?: string;
  tip: string;
}

export function summaryItems(data: AttentionData, inputIndex: number): SummaryItem[] {
  const input = data.inputs[clampIndex(inputIndex, data.inputs.length)];
  const heads = input?.heads ?? [];
  const p = data.parameters;
  // One number when every head agrees; else one per head in head order ("3, 2"), never "3/2", which reads as a fraction.
  const perHead = (f: (h: (typeof heads)[number]) => number) => {
    const values = heads.map(f);
    return values.every((v) => v === values[0]) ? String(values[0] ?? '–') : listSome(values.map(String), 8);
  };
  const same = (f: (h: (typeof heads)[number]) => number) => heads.every((h) => f(h) === f(heads[0]));
  const dk = heads.length ? perHead((h) => h.dk) : '';
  const dv = heads.length ? perHead((h) => h.dv) : '';
  return [
    { label: 'n', value: String(input?.tokens.length ?? 0), tip: `tokens in "${input?.name ?? ''}"` },
    { label: 'd_model', value: String(data.dModel), tip: `features: ${listSome(data.features, 24)}` },
    { label: 'heads', value: String(heads.length), tip: listSome(heads.map((h) => `"${h.name}": d_k ${h.dk}, d_v ${h.dv}`), 16) },
    { label: same((h) => h.dk) ? 'd_k' : 'd_k per head', value: dk || '–', tip: 'width of queries and keys' },
    { label: same((h) => h.dv) ? 'd_v' : 'd_v per head', value: dv || '–', tip: 'width of values (and of each head\'s output)' },
    { label: 'scale', value: scaleText(data.scale), tip: `what the scores are divided by${Number.isFinite(Number(data.scale)) ? ` (${data.scale})` : ''}` },
    { label: 'mask', value: data.mask, tip: 'causal: a token sees only itself and earlier tokens' },
    { label: 'learnable numbers', value: thousands(p.total), tip: `${p.heads.map((h) => `"${h.name}": ${h.wq}+${h.wk}+${h.wv}`).join('; ')}${p.wo ? `; W_O ${p.wo}` : ''} (identity matrices hold none unless the "train" section learns them)` },
  ];
}

/** The scale as the strip writes it: ÷√d_k, none, or the number rounded like every other (a real head's √32 is ÷5.657, not ÷5.656854249492381). */
export function scaleText(scale: string): string {
  if (scale === 'sqrt_dk') return '÷√d_k';
  if (scale === 'none') return 'none';
  const v = Number(scale);
  return `÷${Number.isFinite(v) ? fmt(v) : scale}`;
}

export const renderSummary: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const fs = theme.fontSize;
  const items = summaryItems(data, options.input);
  const pad = 8, gapX = 18, rowH = fs + 14;
  const width = Math.max(options.width, 200);
  // Flow the items like words, wrapping when the line is full.
  const placed: { x: number; y: number; i: number }[] = [];
  let x = pad, y = 0;
  items.forEach((it, i) => {
    const w = textWidth(`${it.label} `, fs) + textWidth(it.value, fs) * 1.1 + (it.note ? textWidth(` ${it.note}`, fs) : 0) + 6;
    if (x + w > width - pad && x > pad) { x = pad; y += rowH; }
    placed.push({ x, y, i });
    x += w + gapX;
  });
  const height = y + rowH + 6;
  const svg = createSvg(container, theme, width, height, 'Summary: shapes and parameter counts', 'summary');
  const g = svg.append('g').attr('class', 'summary-items');
  for (const p of placed) {
    const it = items[p.i];
    const t = g.append('text').attr('class', 'summary-item').attr('data-label', it.label).attr('x', p.x).attr('y', p.y + fs + 6);
    t.append('title').text(it.tip);
    t.append('tspan').attr('fill', theme.muted).text(`${it.label} `);
    t.append('tspan').attr('font-weight', 700).attr('font-family', theme.mono).text(it.value);
    if (it.note) t.append('tspan').attr('class', 'summary-note').attr('fill', theme.muted).text(` ${it.note}`);
  }
  return { svg: svg.node()!, notes: [], destroy: () => svg.remove() };
};
