// JSON paths as the spec's own notation: heads[0].wq, embeddings.apple[2], embeddings["two words"].
export type PathSegment = string | number;
export type JsonPath = readonly PathSegment[];

import { quote } from './quote.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function formatPath(path: JsonPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (seg.length <= 40 && IDENTIFIER.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${quote(seg)}]`;
  }
  return out;
}
