// The registry (registry.ts) as the rest of the runner asks it: every family, a family by its
// config.json model_type, the type of those names, and the names as a sentence lists them. The order
// is the names' alphabetical order (a module namespace lists its exports so), so adding a family never
// means choosing a place in a second list.
import * as registry from './registry.js';
import type { Family } from './shared/family.js';

type Registered = (typeof registry)[keyof typeof registry];

/** A model_type the runner computes. */
export type FamilyName = Registered['name'];

/** Every registered family, by name. */
export const FAMILIES: readonly Family<FamilyName>[] = Object.values(registry);

/** The names, alphabetically. */
export const FAMILY_NAMES: readonly FamilyName[] = FAMILIES.map((f) => f.name);

export function isFamilyName(name: string): name is FamilyName {
  return (FAMILY_NAMES as readonly string[]).includes(name);
}

/** The family whose model_type is `name`, or undefined. */
export function familyOf(name: string): Family<FamilyName> | undefined {
  return FAMILIES.find((f) => f.name === name);
}

/** The names as a sentence lists them: "a, b and c" (`and`), or "a, b or c". */
export function familyList(last: 'and' | 'or' = 'and'): string {
  const names = [...FAMILY_NAMES];
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} ${last} ${names[names.length - 1]}`;
}
