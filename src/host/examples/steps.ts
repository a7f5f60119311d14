// The story the walkthrough (package.json, contributes.walkthroughs) leads through, one example per
// step, in the seeds' order: raw embeddings, the lens, the projection, the geometry, the mouse in two
// contexts, training, the linear-algebra views, then a real model (a GPT-2 built by hand, whose
// induction head the model views show). Opening a step's example sets the context key its step's
// completion event waits for (onContext:attentionLens.walkthrough.<id>). The examples' own "next"
// fields link them in the same order (a unit test holds the three together).
export interface StoryStep {
  readonly id: string;
  readonly example: string;
}

export const STORY_STEPS: readonly StoryStep[] = [
  { id: 'raw', example: 'apple-watch-raw.attn.json' },
  { id: 'lens', example: 'apple-watch-lens.attn.json' },
  { id: 'projection', example: 'seed-projection-512-64.attn.json' },
  { id: 'geometry', example: 'apple-watch-geometry.attn.json' },
  { id: 'mouse', example: 'mouse-two-contexts.attn.json' },
  { id: 'training', example: 'learn-apple-watch.attn.json' },
  { id: 'linalg', example: 'spectrum-stretch-shear-rotate.attn.json' },
  { id: 'model', example: 'induction-gpt2.attn.json' },
];

/** The when-clause context key that says a step's example was opened. */
export function stepContextKey(step: StoryStep): string {
  return `attentionLens.walkthrough.${step.id}`;
}

/** The step whose example is `fileName`, if any. */
export function stepOf(fileName: string): StoryStep | undefined {
  return STORY_STEPS.find((s) => s.example === fileName);
}
