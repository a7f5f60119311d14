// GPT-2 as Hugging Face saves it: LayerNorm with biases, pre-norm, learned positions, q/k/v from one
// Conv1D (y = x · W + b, W stored [in, out], output columns q | k | v), gelu_new MLP, the head tied to
// the token embeddings unless the file has its own lm_head. Newer saves prefix every name with
// "transformer."; old ones carry attn.bias / masked_bias buffers (the causal mask, not weights),
// which are not read.
import type { Obj } from '../../json/object.js';
import { ModelError } from '../error.js';
import { flag, positive, refuse, size } from './shared/config-keys.js';
import { tensorList, type Family, type FamilyConfig, type LayerNames } from './shared/family.js';

function readConfig(json: Obj, file: string): FamilyConfig {
  const dModel = size(json, file, ['n_embd']);
  const heads = size(json, file, ['n_head']);
  if (dModel % heads !== 0) throw new ModelError(`${file}: "n_embd" ${dModel} is not a multiple of "n_head" ${heads}`);
  const activation = json.activation_function ?? 'gelu_new';
  if (activation !== 'gelu_new' && activation !== 'gelu_pytorch_tanh') refuse(file, 'activation_function', activation, 'attn computes gelu_new, the tanh approximation');
  // Flags, not comparisons with true and false: Hugging Face acts on any truthy or falsy value.
  if (flag(json, file, 'scale_attn_by_inverse_layer_idx', false)) refuse(file, 'scale_attn_by_inverse_layer_idx', true, 'scores are divided by √head_dim only');
  if (!flag(json, file, 'scale_attn_weights', true)) refuse(file, 'scale_attn_weights', false, 'scores are divided by √head_dim');
  return {
    layers: size(json, file, ['n_layer']),
    heads,
    kvHeads: heads,
    dModel,
    headDim: dModel / heads,
    vocab: size(json, file, ['vocab_size']),
    contextLength: size(json, file, ['n_positions', 'n_ctx']),
    ffn: size(json, file, ['n_inner'], 4 * dModel),
    eps: positive(json, file, 'layer_norm_epsilon', 1e-5),
    ropeTheta: 0,
    tied: true,
    attention: { kind: 'causal' },
  };
}

export const gpt2: Family<'gpt2'> = {
  name: 'gpt2',
  block: {
    kind: 'sequential',
    norm: { kind: 'layernorm', placement: 'pre' },
    position: 'learned',
    matrices: 'conv1d',
    qkv: 'fused',
    bias: { qkv: true, o: true, mlp: true },
    mlp: 'gelu-new',
  },
  readConfig,
  tensors(c, has) {
    const { shapes, need } = tensorList();
    const E = c.dModel, F = c.ffn, V = c.vocab;
    const p = has('wte.weight') || !has('transformer.wte.weight') ? '' : 'transformer.';
    const layers = Array.from({ length: c.layers }, (_, i): LayerNames => {
      const l = `${p}h.${i}.`;
      return {
        norm1: need(`${l}ln_1.weight`, [E]), norm1Bias: need(`${l}ln_1.bias`, [E]),
        qkv: need(`${l}attn.c_attn.weight`, [E, 3 * E]), qkvBias: need(`${l}attn.c_attn.bias`, [3 * E]),
        o: need(`${l}attn.c_proj.weight`, [E, E]), oBias: need(`${l}attn.c_proj.bias`, [E]),
        norm2: need(`${l}ln_2.weight`, [E]), norm2Bias: need(`${l}ln_2.bias`, [E]),
        fc: need(`${l}mlp.c_fc.weight`, [E, F]), fcBias: need(`${l}mlp.c_fc.bias`, [F]),
        proj: need(`${l}mlp.c_proj.weight`, [F, E]), projBias: need(`${l}mlp.c_proj.bias`, [E]),
      };
    });
    const embed = need(`${p}wte.weight`, [V, E]);
    const head = has('lm_head.weight') ? need('lm_head.weight', [V, E]) : embed;
    return {
      names: { embed, positions: need(`${p}wpe.weight`, [c.contextLength, E]), layers, finalNorm: need(`${p}ln_f.weight`, [E]), finalNormBias: need(`${p}ln_f.bias`, [E]), head },
      shapes,
    };
  },
};
