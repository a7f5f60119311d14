// A head saved from a real checkpoint (the hand-built induction GPT-2 in examples/models): its
// scores of 0 come out of float64 as −8.88e-16 and −1.78e-15, and a rotation leaves 8.66e-17 where
// k has a 0. The matrix, arcs and steps read such values ≈0, as the 0 they stand for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { folderFiles } from '../../../../../src/core/files/spec-files.js';
import { readModelFolder } from '../../../../../src/core/checkpoint-files/model-folder.js';
import { loadModel, runText } from '../../../../../src/core/checkpoint/model.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { tokenizerFrom } from '../../../../../src/core/tokenizer/index.js';
import { lensSpec } from '../../../../../src/core/checkpoint-spec/lens-spec.js';
import { writeSafetensors } from '../../../../../src/core/tensors/safetensors-write.js';
import { at } from '../../../../../src/core/result/attention-data.js';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { cellLines } from '../../../../../webview/views/spec/matrix.js';
import { ROOT } from '../../../../support/paths.js';

/** A number printed with an exponent of −13 or below: float noise next to scores of size 1–100. */
const NOISE = /\de-(1[3-9]|[2-9]\d)/;

test('a real head\'s scores, scaled scores and vectors never show float noise as numbers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attn-real-'));
  const folder = readModelFolder(join(ROOT, 'examples', 'models', 'induction-gpt2'));
  try {
    const model = loadModel(folder.configText, folder.tensors, { precision: 'f64', where: folder.where });
    const run = runText(model, tokenizerFrom(folder.tokenizerFiles), 'The cat sat on the mat. The cat');
    let noisy = 0;
    for (const [layer, head] of [[0, 0], [1, 0]]) {
      const lens = headLens(model, run.ids, run.tokens, layer, head);
      const stem = `l${layer}h${head}`;
      const { spec, tensors } = lensSpec(lens, { tensorFile: `${stem}.safetensors`, model: 'induction', query: run.ids.length - 1 });
      writeFileSync(join(dir, `${stem}.safetensors`), writeSafetensors(tensors));
      const data = analyze(JSON.stringify(spec), { files: folderFiles(dir) }).data!;
      const input = data.inputs[0];
      const n = input.tokens.length;
      for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) {
        const score = at(input.heads[0].scores, i, j);
        if (score !== 0 && Math.abs(score) < 1e-12) noisy++;
        const lines = cellLines(data, input, 0, i, j);
        // The dot product, |q||k| cos θ and the scaling (the weight, a real e^-30, may be that small).
        for (const line of lines.slice(1, 4)) assert.doesNotMatch(line, NOISE, `${stem} ${i}→${j}: ${line}`);
      }
      for (const view of ['arcs', 'steps', 'matrix'] as const) {
        for (const matrixMode of ['scores', 'scaled'] as const) {
          const doc = new JSDOM(renderSvg(data, view, { head: 0, token: n - 1, matrixMode, width: 900 }), { contentType: 'image/svg+xml' }).window.document;
          for (const t of Array.from(doc.querySelectorAll('text, title'))) {
            const own = Array.from(t.childNodes).filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
            // A weight may be a real e^-30 (its line and its "weight …," part are left out); every other number is held to the rule.
            for (const line of own.split('\n').filter((l) => !/^(weight|e\^)|× v_/.test(l))) {
              assert.doesNotMatch(line.replace(/weight [^,]*,/, ''), NOISE, `${stem} ${view} ${matrixMode}: ${line}`);
            }
          }
        }
      }
    }
    assert.ok(noisy > 0, 'the family is not vacuous: some score is float noise');
  } finally {
    folder.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
