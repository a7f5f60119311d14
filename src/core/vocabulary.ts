// The project's words in one place: the weight matrices' roles and how each is written, what the
// matrix view can show, a spec's scale, mask and init words, the colour themes, the export formats,
// and the views' names (the panel's and the model editor's). The host, the core's hovers, the spec
// reader, the CLI and the webview all take their words from here, so a name is changed once; the
// copies that cannot import it (schema/attn.schema.json, README.md) are held to it by
// test/unit/core/vocabulary.test.ts.

/** The weight matrices, by their role in a head (W_O is shared by the heads). */
export type Role = 'wq' | 'wk' | 'wv' | 'wo';
export const ROLES: readonly Role[] = ['wq', 'wk', 'wv', 'wo'];
/** A head's own matrices (W_O is shared): what a head is read from, analysed by, and what training learns. */
export type HeadRole = Exclude<Role, 'wo'>;
export const HEAD_ROLES: readonly HeadRole[] = ['wq', 'wk', 'wv'];
/** How a role is written in text: W_Q, W_K, W_V, W_O. */
export const ROLE_SYMBOL: Record<Role, string> = { wq: 'W_Q', wk: 'W_K', wv: 'W_V', wo: 'W_O' };
/** What a row of the matrix's product is called: a query, a key, a value, an output. */
export const ROLE_PRODUCT: Record<Role, string> = { wq: 'query', wk: 'key', wv: 'value', wo: 'output' };
/** The product's short name in formulas: q_watch, k_apple, v_apple, output_watch. */
export const ROLE_VECTOR: Record<Role, string> = { wq: 'q', wk: 'k', wv: 'v', wo: 'output' };

/** What the matrix view colours its cells by. */
export type MatrixMode = 'scores' | 'scaled' | 'weights' | 'cosine' | 'norms';
export const MATRIX_MODES: readonly MatrixMode[] = ['scores', 'scaled', 'weights', 'cosine', 'norms'];
/** The mode as the picture's legend and title say it. */
export const MODE_LABEL: Record<MatrixMode, string> = {
  scores: 'raw scores q·k',
  scaled: 'scaled scores q·k ÷ s',
  weights: 'weights (softmax of each row)',
  cosine: 'cosine q·k ÷ (|q||k|): direction only',
  norms: 'value-weighted: weight × ‖v W_O‖ (what each key writes)',
};
/** The mode as the toolbar's menu says it. */
export const MODE_MENU: Record<MatrixMode, string> = {
  scores: 'raw scores', scaled: 'scaled scores', weights: 'weights', cosine: 'cosine (angle only)', norms: 'value-weighted norms',
};

/** A spec's "scale" in words (it may also be a positive number): √d_k, the default, or no scaling. */
export const SCALE_WORDS = ['sqrt_dk', 'none'] as const;
export type ScaleWord = (typeof SCALE_WORDS)[number];

/** A spec's top-level "mask": none, the default, or causal (each token sees itself and earlier ones). */
export const MASK_KINDS = ['none', 'causal'] as const;
export type MaskKind = (typeof MASK_KINDS)[number];

/** The named variance rules of a generated weight ("init"): LeCun 1/d_in, Xavier 2/(d_in + d_out), Kaiming 2/d_in. */
export const INIT_RULES = ['lecun', 'xavier', 'kaiming'] as const;
export type InitRule = (typeof INIT_RULES)[number];

/** The colour themes a picture is drawn in (VS Code's kinds; `attn render --theme`). */
export const THEME_KINDS = ['light', 'dark', 'hc-dark', 'hc-light'] as const;
export type ThemeKind = (typeof THEME_KINDS)[number];

export type ExportFormat = 'svg' | 'png';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['svg', 'png'];

/** The panel's views, in the order of its tabs (each name written here once; the type follows the list). */
export const VIEW_NAMES = [
  'arcs', 'tokens', 'matrix', 'steps', 'quadrant', 'projection', 'compare', 'training', 'geometry', 'spectrum', 'heads', 'covariance', 'init',
] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** The model editor's views of a real model's attention file, in the order of its menu. */
export const MODEL_VIEW_NAMES = ['model', 'head', 'head-tokens', 'finder', 'rollout', 'next', 'logit-lens', 'attribution', 'patching'] as const;
export type ModelViewName = (typeof MODEL_VIEW_NAMES)[number];
/** The model views only a model run draws (a file of saved attention has no predictions, no weights to attribute). */
export const RUN_VIEW_NAMES: readonly ModelViewName[] = ['next', 'logit-lens', 'attribution', 'patching'];
