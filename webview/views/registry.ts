// Every view in one table: its name, its tab's title, the toolbar controls it uses and the function
// that draws it. The panel builds its tabs and controls from this table, `attn render` draws from
// it, and a new view is its own file plus one line here.
import type { AnyViewName } from './spec/selection.js';
import { renderArcs } from './spec/arcs.js';
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
import type { ViewFn } from '../kit/view.js';

/** The toolbar's controls: which input, which head, which token, the matrix mode, the projection's matrix. */
export type ControlName = 'input' | 'head' | 'token' | 'mode' | 'projection';

export interface ViewEntry {
  readonly name: AnyViewName;
  readonly title: string;
  readonly controls: readonly ControlName[];
  /** The head menu offers "all heads" (the view draws every head at once). */
  readonly allHeads?: boolean;
  /** What the token menu is called in this view. */
  readonly tokenLabel?: string;
  /** Data the result lacks until asked for: the panel asks the host when the view is shown. */
  readonly needs?: 'linalg';
  readonly render: ViewFn;
}

export const REGISTRY: readonly ViewEntry[] = [
  { name: 'arcs', title: 'Arcs', controls: ['input', 'head'], allHeads: true, render: renderArcs },
  { name: 'matrix', title: 'Matrix', controls: ['input', 'head', 'mode'], allHeads: true, render: renderMatrix },
  { name: 'steps', title: 'Step by step', controls: ['input', 'head', 'token'], tokenLabel: 'Token', render: renderSteps },
  // The quadrant plots every input at once, so it has no input menu.
  { name: 'quadrant', title: 'Quadrant', controls: ['head'], allHeads: true, render: renderQuadrant },
  { name: 'projection', title: 'Projection', controls: ['input', 'head', 'token', 'projection'], tokenLabel: 'Token', render: renderProjection },
  { name: 'compare', title: 'Compare', controls: ['input', 'head', 'token'], tokenLabel: 'Word', render: renderCompare },
  { name: 'training', title: 'Training', controls: ['input', 'head'], render: renderTraining },
  { name: 'geometry', title: 'Geometry', controls: ['input', 'head', 'token'], tokenLabel: 'Query', render: renderGeometry },
  // The linear-algebra lens (the third seed): numbers made in the core with the result.
  { name: 'spectrum', title: 'Spectrum', controls: ['head'], needs: 'linalg', render: renderSpectrum },
  { name: 'heads', title: 'Heads', controls: [], needs: 'linalg', render: renderHeads },
  { name: 'covariance', title: 'Covariance', controls: ['input', 'head'], needs: 'linalg', render: renderCovariance },
  { name: 'init', title: 'Init lab', controls: [], needs: 'linalg', render: renderInitLab },
  // Not a tab: the strip of numbers above every view.
  { name: 'summary', title: 'Summary', controls: [], render: renderSummary },
];

const BY_NAME = new Map(REGISTRY.map((e) => [e.name, e]));

/** The entry of a view; undefined for a name no view has. */
export function viewEntry(name: string): ViewEntry | undefined {
  return BY_NAME.get(name as AnyViewName);
}

/** The draw function of every view by name (the panel, `attn render`, the benchmarks). */
export const VIEWS = Object.fromEntries(REGISTRY.map((e) => [e.name, e.render])) as Record<AnyViewName, ViewFn>;
/** The title of every view by name. */
export const VIEW_TITLES = Object.fromEntries(REGISTRY.map((e) => [e.name, e.title])) as Record<AnyViewName, string>;
