// A generated spec of n tokens and a number of heads (d_model 64, d_k = d_v = 16, causal), for
// benchmarks at sizes no example has. Deterministic: the same text for the same arguments.
export function generatedSpec(n, heads, dModel = 64, dk = 16) {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5);
  const round = (v) => Math.round(v * 1000) / 1000;
  const matrix = (rows, cols) => Array.from({ length: rows }, () => Array.from({ length: cols }, () => round(rand())));
  // 512 distinct words of letters only (a number in a word would be taken for an embedding's by
  // the bench's edit), so the embeddings table stays small while every position varies.
  const word = (i) => (i < 26 ? '' : word(Math.floor(i / 26) - 1)) + String.fromCharCode(97 + (i % 26));
  const vocab = Array.from({ length: Math.min(n, 512) }, (_, i) => `w${word(i)}`);
  const embeddings = Object.fromEntries(vocab.map((w) => [w, Array.from({ length: dModel }, () => round(rand() * 2))]));
  const tokens = Array.from({ length: n }, (_, i) => vocab[i % vocab.length]);
  const spec = {
    title: `${n} tokens, ${heads} heads (generated for benchmarks)`,
    embeddings,
    inputs: [{ name: `${n} tokens`, tokens }],
    heads: Array.from({ length: heads }, (_, h) => ({ name: `head ${h + 1}`, wq: matrix(dModel, dk), wk: matrix(dModel, dk), wv: matrix(dModel, dk) })),
    mask: 'causal',
  };
  return JSON.stringify(spec);
}
