// A model folder's config.json read into the few numbers the forward pass needs. The model_type
// names a family (families/registry.ts); the family's description reads its own keys (GPT-2's
// n_embd, Llama's hidden_size) into one ModelConfig and says how its block computes. Anything the
// forward pass would compute wrongly (an unknown model_type, a rope_scaling variant, an attention
// kind the block lacks) is refused in a sentence naming config.json and the key, rather than run to
// numbers that only look right; a description whose kinds the block does not compute (blockRefusal)
// is refused here too, before any tensor is loaded.
import { isObject } from '../json/object.js';
import { shown } from '../json/shown.js';
import { ModelError } from './error.js';
import type { BlockDescription, FamilyConfig } from './families/shared/family.js';
import { familyList, familyOf } from './families/index.js';
import type { ModelSummary } from './types.js';

export interface ModelConfig extends ModelSummary, FamilyConfig {
  /** How every layer computes: the family's description. */
  block: BlockDescription;
}

export function readModelConfig(text: string, file = 'config.json'): ModelConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ModelError(`${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isObject(json)) throw new ModelError(`${file}: expected a JSON object`);
  const type = json.model_type;
  if (type === undefined || type === null) throw new ModelError(`${file}: "model_type" is missing (${familyList('or')})`);
  if (typeof type !== 'string') throw new ModelError(`${file}: "model_type" must be a string (${familyList('or')}), got ${shown(type)}`);
  const family = familyOf(type);
  if (!family) throw new ModelError(`${file}: model_type ${shown(type)} is not supported (attn runs ${familyList('and')})`);
  const read = family.readConfig(json, file);
  const config: ModelConfig = { type: family.name, ...read, block: read.block ?? family.block };
  const refusal = blockRefusal(config);
  if (refusal) throw new ModelError(`${file}: ${refusal}`);
  return config;
}

/** Why the block (forward.ts) cannot compute this model's description, or undefined when it can. */
export function blockRefusal(c: ModelConfig): string | undefined {
  const b = c.block;
  if (b.norm.placement === 'sandwich' && b.norm.kind !== 'rmsnorm') return `the ${c.type} block has sandwich norms of kind ${b.norm.kind}; attn computes sandwich RMSNorms`;
  // A parallel block reads one norm of x for both branches: there is no post or sandwich form of it to compute.
  if (b.kind === 'parallel' && b.norm.placement !== 'pre') return `the ${c.type} block is parallel with its norms ${b.norm.placement}; attn computes parallel blocks pre-norm only`;
  for (const [where, cap] of Object.entries(c.softcap ?? {})) if (cap !== undefined && !(cap > 0 && Number.isFinite(cap))) return `the ${c.type} model's ${where} softcap ${cap} is not a positive number`;
  for (const list of [c.layerAttention, c.layerRope]) if (list && list.length !== c.layers) return `the ${c.type} model describes ${list.length} layers of its ${c.layers}`;
  return undefined;
}

/** The config's shape as `attn run --json` prints it (contextLength is kept for our own use). */
export function summaryOf(c: ModelConfig): ModelSummary {
  return { type: c.type, layers: c.layers, heads: c.heads, kvHeads: c.kvHeads, dModel: c.dModel, headDim: c.headDim, vocab: c.vocab, contextLength: c.contextLength };
}
