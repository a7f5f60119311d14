// Plain-text tables for `attn compute` without --json: labelled rows and columns, numbers
// right-aligned and rounded so a 3×3 example reads like the seeds' worked tables.
import { maxOf } from '../core/linalg/extent.js';

export function formatNumber(v: number | null, digits = 4): string {
  if (v === null || v === -Infinity) return 'masked';
  if (Number.isInteger(v)) return String(v);
  return String(Number(v.toFixed(digits)));
}

/**
 * A number for the linear algebra's reports, where values span the doubles (a singular value of
 * 1e-300, a condition number of 1e15): as formatNumber from 0.001 up to 10¹⁵, else with four
 * significant digits and an exponent ('2.483e-300', '1.0e-300'), so a value that is not 0 is never
 * written '0'. Every text parses back to a finite number within half its last digit. Not for NaN or ±Infinity: the
 * callers refuse those before printing.
 */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) throw new RangeError(`formatValue: ${v} is not a number to print`);
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1e-3 && a < 1e15) return formatNumber(v);
  const [mantissa, exponent] = v.toExponential(3).split('e');
  const trimmed = mantissa.replace(/0+$/, '');
  const text = `${trimmed.endsWith('.') ? `${trimmed}0` : trimmed}e${exponent}`;
  // Near the largest double four digits round up past it ('1.798e+308' reads as Infinity): all the digits then.
  return Number.isFinite(Number(text)) ? text : String(v);
}

export function table(title: string, rowLabels: readonly string[], colLabels: readonly string[], rows: readonly (readonly (number | null)[])[], format: (v: number | null) => string = formatNumber): string {
  const cells = rows.map((r) => r.map((v) => format(v)));
  const labelWidth = maxOf(rowLabels, (l) => l.length);
  const widths = colLabels.map((c, j) => Math.max(c.length, maxOf(cells, (r) => r[j].length)));
  const line = (label: string, values: readonly string[]) =>
    `  ${label.padEnd(labelWidth)}  ${values.map((v, j) => v.padStart(widths[j])).join('  ')}`.trimEnd();
  return [title, line('', colLabels), ...cells.map((r, i) => line(rowLabels[i], r))].join('\n');
}
