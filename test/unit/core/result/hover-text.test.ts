import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeAttention } from '../../../../src/core/attention/attention.js';
import { fromRows, identity } from '../../../../src/core/linalg/matrix.js';
import { attentionData, type AttentionData } from '../../../../src/core/result/attention-data.js';
import type { Spec, WeightMatrix } from '../../../../src/core/spec/spec.js';
import { escapeMarkdown, hoverAt, matrixHover, tokenHover } from '../../../../src/core/result/hover-text.js';
import { pathOfTarget, spanOfTarget, targetAtPath } from '../../../../src/core/spec/spec-target.js';

// The apple-watch example built by hand, so these tests do not depend on the reader.
const text = `{
  "features": ["is_tech", "is_watch", "is_fruit"],
  "embeddings": { "i": [0, 0, 0.5], "love": [0.5, 0.5, 0.5], "apple": [2, 0, 2], "watch": [1, 3, 0] },
  "inputs": [{ "name": "I love Apple watch", "tokens": ["i", "love", "apple", "watch"] }],
  "heads": [
    { "name": "raw", "wq": "identity", "wk": "identity", "wv": "identity" },
    { "name": "tech lens",
      "wq": [[4, 3], [2, 1], [0, 1]],
      "wk": [[1, 1], [1, 1], [4, 2]],
      "wv": [[1, 0], [1, 0], [0, 0.1]] }
  ],
  "wo": [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [0, 0, 0.5]],
  "scale": "none"
}`;

const emb: Record<string, number[]> = { i: [0, 0, 0.5], love: [0.5, 0.5, 0.5], apple: [2, 0, 2], watch: [1, 3, 0] };
const given = (rows: number[][]): WeightMatrix => ({ matrix: fromRows(rows), identity: false });
const same: WeightMatrix = { matrix: identity(3), identity: true };
const spec: Spec = {
  dModel: 3,
  features: ['is_tech', 'is_watch', 'is_fruit'],
  featuresGiven: true,
  embeddings: new Map(Object.entries(emb).map(([k, v]) => [k, Float64Array.from(v)])),
  inputs: [{
    name: 'I love Apple watch',
    tokens: ['i', 'love', 'apple', 'watch'].map((t) => ({ text: t, embedding: Float64Array.from(emb[t]), inline: false })),
  }],
  heads: [
    { name: 'raw', wq: same, wk: same, wv: same },
    { name: 'tech lens', wq: given([[4, 3], [2, 1], [0, 1]]), wk: given([[1, 1], [1, 1], [4, 2]]), wv: given([[1, 0], [1, 0], [0, 0.1]]) },
  ],
  headsGiven: true,
  wo: given([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [0, 0, 0.5]]),
  scale: { kind: 'none' },
  mask: 'none',
  views: {},
};
const json: AttentionData = attentionData(spec, computeAttention(spec));

const at = (needle: string, skip = 0) => {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, needle);
  return offset + skip;
};

describe('targetAtPath and pathOfTarget', () => {
  it('finds tokens and matrix cells from JSON paths', () => {
    assert.deepEqual(targetAtPath(['inputs', 1, 'tokens', 3]), { kind: 'token', input: 1, token: 3 });
    assert.deepEqual(targetAtPath(['inputs', 1, 'tokens', 3, 'text']), { kind: 'token', input: 1, token: 3 });
    assert.deepEqual(targetAtPath(['heads', 1, 'wq']), { kind: 'matrix', role: 'wq', head: 1 });
    assert.deepEqual(targetAtPath(['heads', 0, 'wv', 2, 1]), { kind: 'matrix', role: 'wv', head: 0, row: 2, col: 1 });
    assert.deepEqual(targetAtPath(['wo', 3]), { kind: 'matrix', role: 'wo', row: 3 });
  });

  it('finds nothing elsewhere', () => {
    for (const p of [[], ['inputs', 0, 'name'], ['inputs', 0, 'tokens', 1, 'embedding', 2], ['heads', 0, 'name'], ['embeddings', 'apple', 0], ['wo', 1, 2, 3]]) {
      assert.equal(targetAtPath(p), undefined, JSON.stringify(p));
    }
  });

  it('turns targets back into paths', () => {
    assert.deepEqual(pathOfTarget({ kind: 'token', input: 0, token: 2 }), ['inputs', 0, 'tokens', 2]);
    assert.deepEqual(pathOfTarget({ kind: 'matrix', role: 'wk', head: 1, row: 0, col: 1 }), ['heads', 1, 'wk', 0, 1]);
    assert.deepEqual(pathOfTarget({ kind: 'matrix', role: 'wo', row: 2 }), ['wo', 2]);
  });
});

describe('spanOfTarget', () => {
  const slice = (span: { offset: number; length: number } | undefined) => span && text.slice(span.offset, span.offset + span.length);
  it('finds a token and a matrix cell', () => {
    assert.equal(slice(spanOfTarget(text, { kind: 'token', input: 0, token: 3 })), '"watch"');
    assert.equal(slice(spanOfTarget(text, { kind: 'matrix', role: 'wk', head: 1, row: 2, col: 0 })), '4');
    assert.equal(slice(spanOfTarget(text, { kind: 'matrix', role: 'wo', row: 4 })), '[0, 0, 0.5]');
  });
  it('falls back to what encloses a place that is not written out', () => {
    assert.equal(slice(spanOfTarget(text, { kind: 'matrix', role: 'wq', head: 0, row: 1, col: 1 })), '"identity"');
    assert.match(slice(spanOfTarget(text, { kind: 'token', input: 0, token: 9 }))!, /^\["i", "love"/);
    assert.equal(spanOfTarget('{}', { kind: 'token', input: 0, token: 0 }), undefined);
  });
});

describe('token hovers', () => {
  it('say whom "watch" attends to most in each head', () => {
    const hover = hoverAt(text, at('"watch"]', 2), json);
    assert.ok(hover);
    assert.match(hover.heading, /"watch": token 4 of 4/);
    assert.equal(hover.lines.length, 2);
    assert.match(hover.lines[1], /^watch → apple 1\.00 \(tech lens\)$/);
    assert.match(hover.lines[0], /\(raw\)$/);
    assert.deepEqual(hover.span, { offset: at('"watch"]'), length: 7 });
  });

  it('are absent without a result or outside tokens', () => {
    assert.equal(hoverAt(text, at('"watch"]', 2), undefined), undefined);
    assert.equal(hoverAt(text, at('"I love'), json), undefined);
    assert.equal(hoverAt(text, at('"scale"'), json), undefined);
  });

  it('say so when every key is masked', () => {
    // Query 0 may see no key: the hover's row is made from Q, K and the mask (not read from the weights).
    const masked = structuredClone(json);
    masked.inputs[0].heads[0].masked.fill(1, 0, 4);
    assert.match(tokenHover(masked, 0, 0)!.lines[0], /every key is masked/);
    assert.equal(tokenHover(json, 0, 9), undefined);
    assert.equal(tokenHover(json, 5, 0), undefined);
  });
});

describe('matrix hovers', () => {
  it('give the shape and role of W_Q', () => {
    const hover = hoverAt(text, at('"wq": [['), json);
    assert.ok(hover);
    assert.equal(hover.heading, 'W_Q of head "tech lens"');
    assert.equal(hover.lines[0], 'W_Q: d_model × d_k = 3 × 2, maps each embedding to a query (what the token is looking for)');
    assert.equal(hover.lines[1], '6 learnable numbers');
  });

  it('name the row and column of a cell', () => {
    const hover = hoverAt(text, at('[[1, 1], [1, 1], [4, 2]]', 18), json);
    assert.ok(hover);
    assert.equal(hover.lines.at(-1), 'row 3 (is_fruit) → key 1: 4');
  });

  it('say when a matrix is the identity', () => {
    const hover = hoverAt(text, at('"identity", "wk"', 3), json);
    assert.ok(hover);
    assert.equal(hover.heading, 'W_Q of head "raw"');
    assert.match(hover.lines[0], /^W_Q: identity, d_model × d_model = 3 × 3, the query is the embedding itself$/);
  });

  it('explain W_O rows as heads and value dimensions', () => {
    const hover = matrixHover(json, { kind: 'matrix', role: 'wo', row: 3, col: 0 });
    assert.ok(hover);
    assert.match(hover.lines[0], /^W_O: heads·d_v × d_model = 5 × 3, mixes/);
    assert.equal(hover.lines.at(-1), 'row 4 (head "tech lens", value 1) → output 1 (is_tech): 1');
    assert.equal(matrixHover(json, { kind: 'matrix', role: 'wq', head: 7 }), undefined);
    const plain = { ...json, matrices: json.matrices.map((m) => (m.role === 'wo' ? { ...m, identity: true } : m)) };
    assert.match(matrixHover(plain, { kind: 'matrix', role: 'wo' })!.lines[0], /^W_O: identity, heads·d_v × heads·d_v = 5 × 3, the heads' outputs, side by side, pass through unchanged$/);
  });
});

describe('escapeMarkdown', () => {
  it('leaves ordinary hover text readable', () => {
    assert.equal(escapeMarkdown('W_Q: d_model × d_k = 3 × 2, maps each embedding to a query (what it looks for)'),
      'W_Q: d_model × d_k = 3 × 2, maps each embedding to a query (what it looks for)');
    assert.equal(escapeMarkdown('watch → apple 0.98 (tech lens)'), 'watch → apple 0.98 (tech lens)');
  });

  it('escapes what Markdown would act on', () => {
    assert.equal(escapeMarkdown('*bold* [link](x) `code` <b> _x_ a|b &amp; ![i](y)'),
      '\\*bold\\* \\[link\\](x) \\`code\\` \\<b\\> \\_x\\_ a\\|b \\&amp; \\!\\[i\\](y)');
    assert.equal(escapeMarkdown('# title'), '\\# title');
    assert.equal(escapeMarkdown('- item'), '\\- item');
    assert.equal(escapeMarkdown('12. item'), '12\\. item');
    assert.equal(escapeMarkdown('back\\slash'), 'back\\\\slash');
  });
});
