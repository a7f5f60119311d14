// The one error a model folder that cannot run raises, in its own file so that the family
// descriptions (which refuse config keys) and the runner that reads them share it without a cycle.

/** A folder that cannot run: the message names the file or tensor at fault and says what is wrong. */
export class ModelError extends Error {
  override name = 'ModelError';
}
