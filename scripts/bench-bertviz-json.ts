// Python's json.dumps, as BertViz's head_view() calls it (default arguments: ', ' and ': ' between
// items, ensure_ascii, floats by repr), for scripts/bench-bertviz.ts: the benchmark rebuilds BertViz's
// page byte for byte in Node, so its size and parse time are the page a Python user gets. Python's repr
// of a float differs from JavaScript's String(): the same shortest digits, but 1e-05 where JavaScript
// writes 0.00001, 1e+16 where it writes 10000000000000000, and 0.5 → 0.5 but 1 → 1.0.

/** repr(x) of a Python float (a float64), as json.dumps writes it (NaN and the infinities as json.dumps does). */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // String() gives the shortest digits that read back as x (the closest such, as Python's repr picks);
  // only where the point goes differs. x = 0.digits × 10^point.
  const text = String(Math.abs(x));
  const [mantissa, exponent] = text.split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  let digits = whole + fraction;
  let point = whole.length + (exponent === undefined ? 0 : Number(exponent));
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  if (point <= -4 || point > 16) {
    const e = point - 1;
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** json.dumps of a str: JSON's escapes, and every character outside printable ASCII (DEL too) as \uXXXX. */
export function pythonJsonString(s: string): string {
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** json.dumps of a list of str. */
export function pythonJsonStrings(list: readonly string[]): string {
  return `[${list.map(pythonJsonString).join(', ')}]`;
}

/** One head's n × n weights (row-major, row = query) as json.dumps writes the nested lists of .tolist(). */
export function pythonJsonHead(weights: ArrayLike<number>, n: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const row: string[] = new Array<string>(n);
    for (let j = 0; j < n; j++) row[j] = pythonFloatRepr(weights[i * n + j]);
    rows.push(`[${row.join(', ')}]`);
  }
  return `[${rows.join(', ')}]`;
}

/** The attention BertViz's head view is given: layers × heads of n × n, read one head at a time. */
export interface HeadViewAttention {
  layers: number;
  heads: number;
  n: number;
  head(layer: number, head: number): ArrayLike<number>;
}

/**
 * json.dumps(params) of head_view(attention, tokens, html_action='return') with no sentence_b_start,
 * layer, heads or include_layers, in pieces (a head at a time: at 12 × 12 × 512 the text is longer than
 * a JavaScript string may be). `tokens` are as given: BertViz's prettifying is the caller's.
 */
export function* headViewParamsJson(attention: HeadViewAttention, tokens: readonly string[], rootDivId: string): Generator<string> {
  const { layers, heads, n } = attention;
  if (tokens.length !== n) throw new Error(`${tokens.length} tokens for ${n} × ${n} attention`);
  const text = pythonJsonStrings(tokens);
  yield '{"attention": [{"name": null, "attn": [';
  for (let l = 0; l < layers; l++) {
    yield l === 0 ? '[' : ', [';
    for (let h = 0; h < heads; h++) yield (h === 0 ? '' : ', ') + pythonJsonHead(attention.head(l, h), n);
    yield ']';
  }
  yield `], "left_text": ${text}, "right_text": ${text}}], "default_filter": "0", "root_div_id": ${pythonJsonString(rootDivId)}, `;
  yield `"layer": null, "heads": null, "include_layers": [${Array.from({ length: layers }, (_, l) => String(l)).join(', ')}]}`;
}
