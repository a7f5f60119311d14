// `attn validate` on a model spec ({ "model", "text" }) applies the rules the run applies to "model"
// (src/core/checkpoint-files/model-location.ts): it printed "ok" for "../m", which the extension
// refuses. A seeded family of "model" values whose verdict is known by construction: a path going
// up anywhere ("..", with / or \), a folder beside the spec (nested, spaces, unicode), a folder that
// is not there, a model id in the Hugging Face cache or not, an absolute path that exists or not.
// A refused one is one line at the place of "model"'s value; an accepted one is "FILE: ok".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attn } from '../../support/cli.js';
import { between, seeded } from '../../support/random.js';
import { tempDir } from '../../support/temp-dir.js';

const cache = tempDir('attn-hub-');
let saved: string | undefined;
before(() => {
  saved = process.env.HF_HUB_CACHE;
  process.env.HF_HUB_CACHE = cache;
  mkdirSync(join(cache, 'models--org--tiny', 'snapshots', 'abc123'), { recursive: true });
});
after(() => { if (saved === undefined) delete process.env.HF_HUB_CACHE; else process.env.HF_HUB_CACHE = saved; });

const NAMES = ['m', 'tiny model', 'modèle', 'a.b', 'x_1'];

test('validate applies the run\'s rules to a model spec\'s "model" (seeded family)', async () => {
  const rand = seeded(20261134);
  const pick = <T>(list: readonly T[]) => list[between(rand, 0, list.length - 1)];
  let ok = 0, refused = 0;
  for (let c = 0; c < 60; c++) {
    const dir = tempDir('attn-validate-model-');
    const name = pick(NAMES);
    let model: string, verdict: RegExp | 'ok';
    switch (c % 6) {
      case 0: { // a path going up, in any place, either slash
        const sep = rand() < 0.5 ? '/' : '\\';
        const parts = [name, '..', name].slice(between(rand, 0, 1), between(rand, 2, 3));
        if (!parts.includes('..')) parts.unshift('..');
        mkdirSync(join(dir, 'sub', name), { recursive: true });
        model = parts.join(sep);
        verdict = /"\.\.", going up, is not allowed/;
        break;
      }
      case 1: { // beside the spec, maybe nested
        model = rand() < 0.5 ? name : `${name}/${pick(NAMES)}`;
        mkdirSync(join(dir, model), { recursive: true });
        verdict = 'ok';
        break;
      }
      case 2: model = `${name}-missing`; verdict = /no folder .* beside the spec/; break;
      case 3: model = 'org/tiny'; verdict = 'ok'; break;
      case 4: model = `org/${name.replace(/[^A-Za-z0-9]/g, '')}absent`; verdict = /no model "org\/\w+" in the Hugging Face cache/; break;
      default: {
        const there = rand() < 0.5;
        model = join(dir, there ? 'elsewhere' : 'nowhere');
        if (there) mkdirSync(model);
        verdict = there ? 'ok' : /no such folder/;
      }
    }
    const file = join(dir, 'run.attn.json');
    const text = `{\n  "text": "the cat",\n  "model": ${JSON.stringify(model)}\n}\n`;
    writeFileSync(file, text);
    const r = await attn('validate', file);
    const what = `case ${c}: ${JSON.stringify(model)}: ${r.err || r.out}`;
    if (verdict === 'ok') {
      ok++;
      assert.deepEqual([r.code, r.out, r.err], [0, `${file}: ok`, ''], what);
    } else {
      refused++;
      assert.equal(r.code, 1, what);
      assert.equal(r.out, '', what);
      assert.equal(r.err.split('\n').length, 1, what);
      assert.ok(r.err.startsWith(`${file}:3:12: model: `), what);
      assert.match(r.err, verdict, what);
    }
  }
  assert.ok(ok >= 20 && refused >= 30, `${ok} ok, ${refused} refused`);
});
