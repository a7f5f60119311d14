// bench:model's table: per shape and length, our runs, the numpy and torch forwards and numpy's sgemm
// beside them, the ratios, the references' agreement with each other and with our attention.
import { gflops, goals, isRun, judged, type Measured } from './goals.js';

const ms = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '—' : String(Math.round(v)));
const num = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '—');
const e = (v: number | string | undefined) => (typeof v === 'number' ? v.toExponential(1) : '—');

/** Columns padded to their widest cell, the first three left-aligned, the numbers right-aligned. */
export function layout(rows: readonly string[][]): string[] {
  const widths = rows[0].map((_, j) => rows.reduce((w, r) => (r.length > 3 && j < r.length ? Math.max(w, r[j].length) : w), 0));
  return rows.map((r) => r.map((c, j) => (j < 2 || (j === 2 && r.length > 3) ? c.padEnd(widths[j]) : j < 3 ? c : c.padStart(widths[j]))).join('  ').trimEnd());
}

export function table(measured: readonly Measured[]): string[] {
  const rows: string[][] = [['shape', 'tokens', 'who', 'load ms', 'tokenize ms', 'forward ms', 'wall ms', 'peak MB', 'GFLOP/s']];
  for (const m of measured) {
    const head = [m.label, String(m.n)];
    const first = () => { const h = [...head]; head[0] = ''; head[1] = ''; return h; };
    rows.push([...first(), `(${num(m.flops.total / 1e9, 1)} GFLOP: matrices ${num(m.flops.matrices / 1e9, 1)}, causal attention ${num(m.flops.attention / 1e9, 1)}, head ${num(m.flops.head / 1e9, 2)})`]);
    for (const o of m.ours) {
      rows.push(isRun(o)
        ? [...first(), `attn run ${o.precision}`, ms(o.loadMs), ms(o.tokenizeMs), ms(o.forwardMs), ms(o.wallMs), ms(o.peakMB), num(gflops(m.flops.total, o.forwardMs))]
        : [...first(), `attn run ${o.precision}: refused (${o.refused}) after ${ms(o.wallMs)} ms, peak ${ms(o.peakMB)} MB`]);
    }
    const r = m.ref;
    if (!r) continue;
    rows.push([...first(), 'numpy f32 forward (best; first)', ms(r.loadMs), '—', `${ms(r.numpy.forwardMs)} (${ms(r.numpy.firstMs)})`, '—', ms(r.peakMB), num(gflops(m.flops.total, r.numpy.forwardMs))]);
    if (r.torch) rows.push([...first(), `torch ${r.torch.version} f32, ${r.torch.threads} thread${r.torch.threads > 1 ? 's' : ''} (warm best; first)`, '—', '—', `${ms(r.torch.forwardMs)} (${ms(r.torch.firstMs)})`, '—', '—', num(gflops(m.flops.total, r.torch.forwardMs))]);
    rows.push([...first(), 'numpy sgemm at the matrix shapes', '', '', '', '', '', num(r.sgemm.gflops)]);
    const o = judged(m);
    if (o && isRun(o)) {
      const ratios = [`ours ${o.precision} / numpy forward ${num(o.forwardMs / r.numpy.forwardMs, 2)}×`];
      if (r.torch) ratios.push(`/ torch warm ${num(o.forwardMs / r.torch.forwardMs, 2)}×`);
      ratios.push(`kernel / numpy sgemm ${num(gflops(m.flops.total, o.forwardMs) / r.sgemm.gflops, 2)}`);
      rows.push([...first(), `ratios: ${ratios.join(', ')}`]);
    }
    const agree: string[] = [];
    if (r.agree) agree.push(`numpy↔torch max |Δ| last logits ${e(r.agree.logits)} (logits up to ${num(r.agree.logitScale, 2)}), attention L0/last ${e(r.agree.attention)}`);
    for (const a of r.ours) agree.push(`numpy↔${a.label} attention ${Object.entries(a).filter(([k]) => k !== 'label').map(([k, v]) => `${k.replace('layer', 'L')} ${e(v)}`).join(' ')}`);
    if (!r.finite) agree.push('the numpy logits are NOT finite');
    if (agree.length > 0) rows.push([...first(), `agree: ${agree.join('; ')}`]);
  }
  return layout(rows);
}

export function goalLines(measured: readonly Measured[]): string[] {
  return goals(measured).map((g) => `${g.met ? '✓' : '✗'} ${g.text}`);
}
