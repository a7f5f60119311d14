// A message's check, looked up by its type. Each protocol keeps one table of checks per direction and
// declares it `satisfies ByType<TheMessageUnion, Check>`: the compiler then holds the table's keys to the
// union's types, so a message type added without its check, or a check left for a type that is gone,
// fails typecheck instead of being refused (or let through) at run time.

/** One check for each `type` of the message union `M`, and nothing else. */
export type ByType<M extends { type: string }, Check> = { readonly [K in M['type']]: Check };

/**
 * The check for `type`, or undefined when the table has none: a type that is not a string, or a name
 * every object has ("toString", "__proto__", "constructor"), finds nothing.
 */
export function checkOf<Check>(checks: { readonly [type: string]: Check }, type: unknown): Check | undefined {
  return typeof type === 'string' && Object.hasOwn(checks, type) ? checks[type] : undefined;
}
