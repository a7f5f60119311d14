// Every view in one table, the spec panel's and the model editor's alike: its name, its title, the
// data it needs (the computed spec's result, that result's linear-algebra numbers, or a real
// model's attention file), the toolbar controls it uses and the function that draws it. The panel
// builds its tabs and controls from this table, the model editor its view menu, `attn render`
// draws from it, and a new view is its own file, its name in src/core/vocabulary.ts and one line here.
import type { AnyViewName } from './spec/selection.js';
import { renderArcs } from './spec/arcs.js';
import { renderTokens } from './spec/tokens.js';
import { renderMatrix } from './spec/matrix.js';
import { renderSteps } from './spec/steps.js';
import { renderQuadrant } from './spec/quadrant.js';
import { renderProjection } from './spec/projection.js';
import { renderCompare } from './spec/compare.js';
import { renderSummary } from './spec/summary.js';
import { renderTraining } from './spec/training.js';
import { renderGeometry } from './spec/geometry.js';
import { renderSpectrum } from './linalg/spectrum.js';
import { renderHeads } from './linalg/heads.js';
import { renderCovariance } from './linalg/covariance.js';
import { renderInitLab } from './linalg/init-lab.js';
import { MODEL_ENTRIES, type ModelViewEntry } from './model-registry.js';
import type { ViewFn } from '../kit/view.js';

/** The toolbar's controls: which input, which head, which token, the matrix mode, the projection's matrix. */
export type ControlName = 'input' | 'head' | 'token' | 'mode' | 'projection';

/**
 * The data a view draws: 'spec' the computed spec's result (AttentionData); 'linalg' that result
 * with its linear-algebra numbers, which the panel asks the host for when the view is shown;
 * 'model' a real model's attention file (ModelViewData).
 */
export type ViewNeeds = 'spec' | 'linalg' | 'model';

/** A view of the spec panel (and of `attn render` on a spec). */
export interface SpecViewEntry {
  readonly name: AnyViewName;
  readonly title: string;
  readonly needs: Exclude<ViewNeeds, 'model'>;
  readonly controls: readonly ControlName[];
  /** The head menu offers "all heads" (the view draws every head at once). */
  readonly allHeads?: boolean;
  /** What the token menu is called in this view. */
  readonly tokenLabel?: string;
  readonly render: ViewFn;
}

export type { ModelViewEntry } from './model-registry.js';
export { MODEL_ENTRIES, MODEL_VIEWS, modelEntry } from './model-registry.js';

export type ViewEntry = SpecViewEntry | ModelViewEntry;

export const REGISTRY: readonly ViewEntry[] = [
  { name: 'arcs', title: 'Arcs', needs: 'spec', controls: ['input', 'head'], allHeads: true, render: renderArcs },
  // BertViz's head view: hover a token, the others light up by their weight.
  { name: 'tokens', title: 'Tokens', needs: 'spec', controls: ['input', 'head'], allHeads: true, render: renderTokens },
  { name: 'matrix', title: 'Matrix', needs: 'spec', controls: ['input', 'head', 'mode'], allHeads: true, render: renderMatrix },
  { name: 'steps', title: 'Step by step', needs: 'spec', controls: ['input', 'head', 'token'], tokenLabel: 'Token', render: renderSteps },
  // The quadrant plots every input at once, so it has no input menu.
  { name: 'quadrant', title: 'Quadrant', needs: 'spec', controls: ['head'], allHeads: true, render: renderQuadrant },
  { name: 'projection', title: 'Projection', needs: 'spec', controls: ['input', 'head', 'token', 'projection'], tokenLabel: 'Token', render: renderProjection },
  { name: 'compare', title: 'Compare', needs: 'spec', controls: ['input', 'head', 'token'], tokenLabel: 'Word', render: renderCompare },
  { name: 'training', title: 'Training', needs: 'spec', controls: ['input', 'head'], render: renderTraining },
  { name: 'geometry', title: 'Geometry', needs: 'spec', controls: ['input', 'head', 'token'], tokenLabel: 'Query', render: renderGeometry },
  // The linear-algebra lens (the third seed): numbers made in the core with the result.
  { name: 'spectrum', title: 'Spectrum', needs: 'linalg', controls: ['head'], render: renderSpectrum },
  { name: 'heads', title: 'Heads', needs: 'linalg', controls: [], render: renderHeads },
  { name: 'covariance', title: 'Covariance', needs: 'linalg', controls: ['input', 'head'], render: renderCovariance },
  { name: 'init', title: 'Init lab', needs: 'linalg', controls: [], render: renderInitLab },
  // Not a tab: the strip of numbers above every view.
  { name: 'summary', title: 'Summary', needs: 'spec', controls: [], render: renderSummary },
  // A real model's attention file, in the model editor's menu order (its own table: model-registry.ts).
  ...MODEL_ENTRIES,
];

export const isModelEntry = (e: ViewEntry): e is ModelViewEntry => e.needs === 'model';
export const isSpecEntry = (e: ViewEntry): e is SpecViewEntry => e.needs !== 'model';

/** The panel's views (its tabs, in order, and the summary strip). */
export const SPEC_ENTRIES: readonly SpecViewEntry[] = REGISTRY.filter(isSpecEntry);

const BY_NAME = new Map<string, ViewEntry>(REGISTRY.map((e) => [e.name, e]));

/** The entry of any view; undefined for a name no view has. */
export function viewEntry(name: string): ViewEntry | undefined {
  return BY_NAME.get(name);
}

/** The entry of a view drawn from a spec's result; undefined for a model view or an unknown name. */
export function specEntry(name: string): SpecViewEntry | undefined {
  const e = BY_NAME.get(name);
  return e && isSpecEntry(e) ? e : undefined;
}


/** The draw function of every spec view by name (the panel, `attn render`, the benchmarks). */
export const VIEWS = Object.fromEntries(SPEC_ENTRIES.map((e) => [e.name, e.render])) as Record<AnyViewName, ViewFn>;
/** The title of every spec view by name. */
export const VIEW_TITLES = Object.fromEntries(SPEC_ENTRIES.map((e) => [e.name, e.title])) as Record<AnyViewName, string>;
