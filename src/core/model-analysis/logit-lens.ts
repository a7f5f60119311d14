// The logit lens: what the model would predict if it stopped after layer l. The residual stream after
// each layer, at every position, goes through the model's own final norm and output head (logitsOfRows:
// the same sums as the run's own last position, so after the last layer it is the run's prediction),
// and the five most likely tokens are kept. Costs a vocabulary × dModel product per layer and position
// (as much as a forward pass of 128 tokens for GPT-2 small): computed only when asked.
import type { ModelConfig } from '../checkpoint/config.js';
import type { ModelNames } from '../checkpoint/families/shared/family.js';
import { logitsOfRows } from '../checkpoint/forward.js';
import { topNext } from '../checkpoint/model.js';
import type { ForwardProbe } from '../checkpoint/probe.js';
import { numeric, type Floats, type Precision } from '../checkpoint/precision.js';
import type { NextToken } from '../checkpoint/types.js';
import type { Weights } from '../checkpoint/weights.js';

export interface LensProbe {
  probe: ForwardProbe;
  /**
   * [layer][position]: the five most likely tokens after that layer (layer 0: after the first).
   * `onRow` is called after each row (a caller stops by throwing: the lens is layers × n products
   * with the vocabulary, seconds on a big model, after the pass).
   */
  finish(decodeOne: (id: number) => string, onRow?: () => void): NextToken[][][];
}

export function lensProbe(c: ModelConfig, names: ModelNames, w: Weights, precision: Precision): LensProbe {
  const after: { data: Floats; rows: number }[] = [];
  return {
    probe: {
      // The stream entering layer l + 1 is the one after layer l; the last, after the last layer.
      layerInput(layer, x) {
        if (layer > 0) after[layer - 1] = { data: x.data.slice(), rows: x.rows };
      },
    },
    finish(decodeOne, onRow) {
      const num = numeric(precision);
      return after.map(({ data, rows }, layer) => {
        const top: NextToken[][] = [];
        logitsOfRows(c, num, names, w, { rows, cols: c.dModel, data }, (row, logits) => {
          top[row] = topNext(logits, 5, decodeOne);
          onRow?.();
        }, `in the logit lens after layer ${layer + 1}`);
        return top;
      });
    },
  };
}
