// What a hover in the spec's editor says. Over a token of an input: whom it attends to most in
// each head ("watch → apple 0.98 (tech lens)"). Over a weight matrix: its shape and its role in
// the seeds' terms ("W_Q: d_model × d_k = 3 × 2, maps each embedding to a query").
// Plain text only: the host escapes it into Markdown.
import { ROLE_PRODUCT, ROLE_SYMBOL } from '../vocabulary.js';
import { getLocation } from 'jsonc-parser';
import { findMatrix } from './matrix-info.js';
import { weightAt, weightsRowOf, type AttentionData } from './attention-data.js';
import type { Span } from '../spec/spec.js';
import { targetAtPath, type MatrixRole, type SpecTarget } from '../spec/spec-target.js';

export interface HoverText {
  /** The text range the hover is about (the token's string, the matrix's number...). */
  readonly span?: Span;
  readonly heading: string;
  readonly lines: readonly string[];
}


const ROLE_TEXT: Record<MatrixRole, { out: string; does: string; identity: string }> = {
  wq: { out: 'd_k', does: 'maps each embedding to a query (what the token is looking for)', identity: 'the query is the embedding itself' },
  wk: { out: 'd_k', does: 'maps each embedding to a key (what the token offers to be found by)', identity: 'the key is the embedding itself' },
  wv: { out: 'd_v', does: 'maps each embedding to a value (what the token passes on when attended to)', identity: 'the value is the embedding itself' },
  wo: { out: 'd_model', does: "mixes the heads' outputs, side by side, back into one vector per token", identity: "the heads' outputs, side by side, pass through unchanged" },
};

/** Weights as the views print them: two decimals. */
export function formatWeight(w: number): string {
  return w.toFixed(2);
}

function formatNumber(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
}

/** The hover at a character offset of the spec's text, from the last computed result model. */
export function hoverAt(text: string, offset: number, data: AttentionData | undefined): HoverText | undefined {
  if (!data) return undefined;
  const location = getLocation(text, offset);
  const target = targetAtPath(location.path);
  if (!target) return undefined;
  const node = location.previousNode;
  const span = node ? { offset: node.offset, length: node.length } : undefined;
  const hover = hoverForTarget(data, target);
  return hover && span ? { ...hover, span } : hover;
}

export function hoverForTarget(data: AttentionData, target: SpecTarget): HoverText | undefined {
  return target.kind === 'token' ? tokenHover(data, target.input, target.token) : matrixHover(data, target);
}

/** Per head, the key the token's query gives the most weight to. */
export function tokenHover(data: AttentionData, inputIndex: number, tokenIndex: number): HoverText | undefined {
  const input = data.inputs[inputIndex];
  const query = input?.tokens[tokenIndex];
  if (query === undefined) return undefined;
  const lines = input.heads.map((head) => {
    const weights = tokenIndex < head.q.rows ? weightsRowOf(head, tokenIndex) : new Float64Array(0);
    let best = -1;
    weights.forEach((w, j) => { if (w > 0 && (best < 0 || w > weights[best])) best = j; });
    if (best < 0) return `${query} → nothing: every key is masked (${head.name})`;
    return `${query} → ${input.tokens[best]} ${formatWeight(weights[best])} (${head.name})`;
  });
  return {
    heading: `"${query}": token ${tokenIndex + 1} of ${input.tokens.length} in "${input.name}"`,
    lines,
  };
}

/** Names of the rows of a matrix: the features for W_Q, W_K, W_V; head and value dimension for W_O. */
function rowName(data: AttentionData, role: MatrixRole, row: number): string | undefined {
  if (role !== 'wo') return data.features[row];
  let start = 0;
  for (const head of data.inputs[0]?.heads ?? []) {
    if (row < start + head.dv) return `head "${head.name}", value ${row - start + 1}`;
    start += head.dv;
  }
  return undefined;
}

export function matrixHover(data: AttentionData, target: SpecTarget & { kind: 'matrix' }): HoverText | undefined {
  const { role, head } = target;
  const m = findMatrix(data, role, head);
  if (!m) return undefined;
  const text = ROLE_TEXT[role];
  const symbol = ROLE_SYMBOL[role];
  const headName = head !== undefined ? data.inputs[0]?.heads[head]?.name : undefined;
  const heading = role === 'wo' ? `${symbol}: the output projection` : `${symbol} of head "${headName ?? head}"`;
  const inName = role === 'wo' ? 'heads·d_v' : 'd_model';
  const outName = role === 'wo' && m.cols !== data.dModel ? 'd_out' : text.out;
  const lines: string[] = [];
  if (m.identity) {
    const size = role === 'wo' ? 'heads·d_v × heads·d_v' : 'd_model × d_model';
    lines.push(`${symbol}: identity, ${size} = ${m.rows} × ${m.cols}, ${text.identity}`);
  } else {
    lines.push(`${symbol}: ${inName} × ${outName} = ${m.rows} × ${m.cols}, ${text.does}`);
    lines.push(`${m.rows * m.cols} learnable numbers`);
  }
  if (target.row !== undefined && target.row < m.rows) {
    const name = rowName(data, role, target.row);
    const rowText = `row ${target.row + 1}${name ? ` (${name})` : ''}`;
    if (target.col !== undefined && target.col < m.cols) {
      const outCol = role === 'wo' && data.features[target.col] && m.cols === data.dModel
        ? `${ROLE_PRODUCT[role]} ${target.col + 1} (${data.features[target.col]})`
        : `${ROLE_PRODUCT[role]} ${target.col + 1}`;
      lines.push(`${rowText} → ${outCol}: ${formatNumber(weightAt(m, target.row, target.col))}`);
    } else {
      lines.push(`${rowText}: how ${role === 'wo' ? 'this value dimension' : `the feature ${name ?? target.row + 1}`} feeds each ${ROLE_PRODUCT[role]} dimension`);
    }
  }
  return { heading, lines };
}

/**
 * Markdown-escapes plain text (spec strings included) so it shows as written, while staying
 * readable in the raw Markdown: "d_model" keeps its underscore, since CommonMark never reads an
 * underscore between two word characters as emphasis.
 */
export function escapeMarkdown(text: string): string {
  const escaped = text
    .replace(/[\\`*[\]<>~|&!]/g, '\\$&')
    .replace(/_/g, (u, at: number, s: string) => (/\w/.test(s[at - 1] ?? '') && /\w/.test(s[at + 1] ?? '') ? u : '\\_'));
  // What would start a heading, quote, list or rule at the beginning of a line.
  return escaped.replace(/^(\s*)([#>+=-]|\d+[.)])/, (_m, space: string, mark: string) => `${space}${mark.slice(0, -1)}\\${mark.slice(-1)}`);
}
