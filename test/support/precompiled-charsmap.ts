// A SentencePiece precompiled_charsmap made from rules { from: to }, for the Precompiled normalizer's
// tests: a darts-clone double array over the UTF-8 bytes of each "from" (each node's children placed at
// the first base where all their slots are free, a leaf's value in the slot of label 0), then the "to"
// texts, each ending in a 0 byte, base64-encoded as tokenizer.json holds it.
interface Node { children: Map<number, Node>; value?: number }

export function charsmap(rules: Record<string, string>): string {
  const encoder = new TextEncoder();
  const root: Node = { children: new Map() };
  const blob: number[] = [];
  for (const [from, to] of Object.entries(rules)) {
    let node = root;
    for (const b of encoder.encode(from)) {
      let next = node.children.get(b);
      if (!next) { next = { children: new Map() }; node.children.set(b, next); }
      node = next;
    }
    node.value = blob.length;
    blob.push(...encoder.encode(to), 0);
  }
  const units: number[] = [];
  const used = new Set<number>([0]);
  const place = (node: Node, pos: number, label: number): void => {
    const labels = [...(node.value !== undefined ? [0] : []), ...node.children.keys()];
    let base = 1;
    while (labels.some((l) => used.has(base ^ l))) base++;
    for (const l of labels) used.add(base ^ l);
    units[pos] = (label | (node.value !== undefined ? 1 << 8 : 0) | ((pos ^ base) << 10)) >>> 0;
    if (node.value !== undefined) units[base] = node.value;
    for (const [c, child] of node.children) place(child, base ^ c, c);
  };
  place(root, 0, 0);
  const size = units.length;
  const out = new Uint8Array(4 + 4 * size + blob.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 4 * size, true);
  for (let i = 0; i < size; i++) view.setUint32(4 + 4 * i, units[i] ?? 0, true);
  out.set(blob, 4 + 4 * size);
  return btoa(String.fromCharCode(...out));
}
