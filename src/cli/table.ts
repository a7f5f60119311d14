// Plain-text tables for `attn compute` without --json: labelled rows and columns, numbers
// right-aligned and rounded so a 3×3 example reads like the seeds' worked tables.
import { maxOf } from '../core/linalg/extent.js';

export function formatNumber(v: number | null, digits = 4): string {
  if (v === null || v === -Infinity) return 'masked';
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toFixed(digits)));
}

export function table(title: string, rowLabels: readonly string[], colLabels: readonly string[], rows: readonly (readonly (number | null)[])[]): string {
  const cells = rows.map((r) => r.map((v) => formatNumber(v)));
  const labelWidth = maxOf(rowLabels, (l) => l.length);
  const widths = colLabels.map((c, j) => Math.max(c.length, maxOf(cells, (r) => r[j].length)));
  const line = (label: string, values: readonly string[]) =>
    `  ${label.padEnd(labelWidth)}  ${values.map((v, j) => v.padStart(widths[j])).join('  ')}`.trimEnd();
  return [title, line('', colLabels), ...cells.map((r, i) => line(rowLabels[i], r))].join('\n');
}
