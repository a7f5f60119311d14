// RoPE's keys in config.json as Hugging Face reads them: the base from rope_theta, or from
// transformers 5's rope_parameters { rope_type, rope_theta, … }; the scaling from rope_scaling
// { rope_type (older files: type), factor, … } or from rope_parameters. default, linear, dynamic and
// llama3 are computed (rope-frequencies.ts) for a family that allows them; every other rope_type
// (yarn, longrope, su, …), a parameter that is missing or would make a frequency NaN, or a family
// that computes plain RoPE only, is refused in one sentence naming config.json and the key.
import { isObject, type Obj } from '../../../json/object.js';
import { ModelError } from '../../error.js';
import { frequencyProblem, ropeFrequencies, thetaOverflow } from '../../rope-frequencies.js';
import { positive, refuse } from './config-keys.js';
import type { RopeScaling } from './family.js';

/** The rope_types computed besides default. */
const SCALED = ['linear', 'dynamic', 'llama3'] as const;

export interface RopeKeys {
  theta: number;
  scaling?: RopeScaling;
}

export interface RopeContext {
  headDim: number;
  /** max_position_embeddings: dynamic's L0, and where the angles are checked. */
  contextLength: number;
  /** Whether the family computes scaled RoPE (Llama); otherwise a scaled rope_type is refused. */
  scaled: boolean;
}

/** rope_theta, rope_scaling and rope_parameters read together; a config whose angles are not all finite at the context length is refused. */
export function readRope(json: Obj, file: string, at: RopeContext): RopeKeys {
  const theta = readTheta(json, file);
  const fromScaling = scalingOf(json, file, 'rope_scaling', at);
  const fromParameters = scalingOf(json, file, 'rope_parameters', at);
  // Both may be saved alike; two that differ leave which one the model was trained with unknown.
  if (fromScaling && fromParameters && JSON.stringify(fromScaling) !== JSON.stringify(fromParameters)) {
    refuse(file, 'rope_parameters', json.rope_parameters, 'rope_scaling scales RoPE otherwise; which one the model was trained with cannot be told');
  }
  const scaling = fromScaling ?? fromParameters;
  const problem = frequencyProblem(ropeFrequencies(theta, at.headDim, scaling, at.contextLength), at.contextLength);
  if (problem) {
    const key = fromScaling ? 'rope_scaling' : 'rope_parameters';
    if (scaling) refuse(file, key, json[key], `${problem} with rope_theta ${theta} and head_dim ${at.headDim}`);
    refuse(file, 'rope_theta', theta, thetaOverflow(theta, at.headDim, at.contextLength) ?? problem);
  }
  return scaling ? { theta, scaling } : { theta };
}

/**
 * RoPE's base, from rope_theta (transformers before 5) or rope_parameters' rope_theta (transformers 5
 * saves no other): never the default θ where rope_parameters gives another. RoPE parameters per
 * layer type (nested objects) and two θ that disagree are refused.
 */
function readTheta(json: Obj, file: string): number {
  const theta = positive(json, file, 'rope_theta', 10000);
  const params = json.rope_parameters;
  if (params === undefined || params === null) return theta;
  if (!isObject(params) || Object.values(params).some(isObject)) refuse(file, 'rope_parameters', params, 'attn reads one { "rope_type", "rope_theta" } for every layer');
  if (params.rope_theta === undefined || params.rope_theta === null) return theta;
  const inner = positive(params, `${file}: "rope_parameters"`, 'rope_theta', theta);
  if (json.rope_theta !== undefined && json.rope_theta !== null && inner !== theta) {
    throw new ModelError(`${file}: "rope_theta" ${theta} and "rope_parameters"'s rope_theta ${inner} disagree; which one the model was trained with cannot be told`);
  }
  return inner;
}

/** The scaling `key` (rope_scaling or rope_parameters) asks for: undefined for none or default. */
function scalingOf(json: Obj, file: string, key: 'rope_scaling' | 'rope_parameters', at: RopeContext): RopeScaling | undefined {
  const value = json[key];
  if (value === undefined || value === null) return undefined;
  // rope_parameters' shape was checked with its θ; rope_scaling must name its type (Hugging Face fails on one without).
  if (!isObject(value)) refuse(file, key, value, 'expected { "rope_type", … }');
  const kind = value.rope_type ?? value.type ?? (key === 'rope_parameters' ? 'default' : undefined);
  if (kind === 'default') return undefined;
  const known = (SCALED as readonly unknown[]).includes(kind);
  if (!at.scaled || !known) {
    const why = at.scaled
      ? `attn computes the rope_type default, linear, dynamic and llama3; ${typeof kind === 'string' ? `"${kind.slice(0, 40)}"` : 'this one'} is not implemented`
      : 'attn applies plain RoPE to this family; its linear, dynamic and llama3 scaling are computed for llama only';
    refuse(file, key, value, why);
  }
  const factor = number(value, file, key, kind as string, 'factor', (v) => v >= 1, 'a number ≥ 1');
  if (kind === 'linear') return { kind, factor };
  if (kind === 'dynamic') {
    // Hugging Face's exponent d / (d − 2) divides by zero at head_dim 2.
    if (at.headDim <= 2) refuse(file, key, value, `dynamic raises the base to head_dim / (head_dim − 2), and head_dim is ${at.headDim}`);
    return { kind, factor, original: at.contextLength };
  }
  const lowFreqFactor = number(value, file, key, 'llama3', 'low_freq_factor', (v) => v > 0, 'a positive number');
  const highFreqFactor = number(value, file, key, 'llama3', 'high_freq_factor', (v) => v > lowFreqFactor, `a number above low_freq_factor ${lowFreqFactor}`);
  const original = number(value, file, key, 'llama3', 'original_max_position_embeddings', (v) => Number.isInteger(v) && v >= 1, 'a whole number ≥ 1');
  return { kind: 'llama3', factor, lowFreqFactor, highFreqFactor, original };
}

/** A finite number under `name` in the scaling object that passes `ok`, refused naming the key otherwise. */
function number(value: Obj, file: string, key: string, kind: string, name: string, ok: (v: number) => boolean, what: string): number {
  const v = value[name];
  if (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)) {
    refuse(file, key, value, v === undefined ? `${kind} needs "${name}", ${what}` : `${kind}'s "${name}" must be ${what}`);
  }
  return v;
}
