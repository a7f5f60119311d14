// Each head's rows of W_O (norms.ts's headRowsOfWo, which the norms and the attribution read) held to
// the forward pass's own product, whatever the layout (GPT-2's Conv1D [in, out], nn.Linear's [out,
// in], Phi-3's fused projections): the attention output with head h zeroed differs from the run's by
// exactly z_h · W_O^h, so that difference is what the head's rows must give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { ablationProbe, together } from '../../../../src/core/model-analysis/interventions.js';
import { headRowsOfWo } from '../../../../src/core/model-analysis/norms.js';
import type { ForwardProbe } from '../../../../src/core/checkpoint/probe.js';
import { GPT2_CONFIG, PHI3_MINI_4K_CONFIG, PYTHIA_70M_CONFIG, QWEN3_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const IDS = [1, 17, 5, 5, 39, 0, 12, 8];

for (const [family, config] of Object.entries({ gpt2: GPT2_CONFIG, qwen3: QWEN3_CONFIG, pythia: PYTHIA_70M_CONFIG, phi3: PHI3_MINI_4K_CONFIG })) {
  test(`${family}: z_h · (head h's rows of W_O) is what zeroing head h takes from the attention output (1e-12, float64)`, () => {
    const { configText, tensors } = tinyCheckpoint(config, 6);
    const m = loadModel(configText, tensors, { precision: 'f64' });
    const c = m.config, D = c.headDim, E = c.dModel, Z = c.heads * D;
    for (let layer = 0; layer < c.layers; layer++) {
      const rows = headRowsOfWo(c, m.weights, m.names.layers[layer].o, 'f64');
      const outputOf = (probe?: ForwardProbe) => {
        let z: Float64Array | undefined, out: Float64Array | undefined;
        const look: ForwardProbe = {
          headOutputs: (l, x) => { if (l === layer && !z) z = Float64Array.from(x.data); },
          attentionOutput: (l, x) => { if (l === layer) out = Float64Array.from(x.data); },
        };
        forward(c, m.names, m.weights, IDS, { precision: 'f64', probe: together(probe ? [look, probe] : [look]) });
        return { z: z!, out: out! };
      };
      const whole = outputOf();
      for (let h = 0; h < c.heads; h++) {
        const without = outputOf(ablationProbe([{ layer, head: h }], 'zero', D)).out;
        let worst = 0, size = 0;
        for (let i = 0; i < IDS.length; i++) {
          for (let e = 0; e < E; e++) {
            let mine = 0;
            for (let d = 0; d < D; d++) mine += whole.z[i * Z + h * D + d] * rows[h][d * E + e];
            const taken = whole.out[i * E + e] - without[i * E + e];
            worst = Math.max(worst, Math.abs(mine - taken));
            size = Math.max(size, Math.abs(taken));
          }
        }
        assert.ok(size > 1e-3, `${family} ${layer}.${h}: the head writes something`);
        assert.ok(worst < 1e-12, `${family} layer ${layer + 1} head ${h + 1}: off by ${worst}`);
      }
    }
  });
}
