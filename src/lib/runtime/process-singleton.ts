// Owns process-wide singletons: one instance per process, however often its module runs.
// In production the server is one bundle and a module-level variable would do; but the dev
// server re-evaluates modules on every edit, and a second database handle, cache or request
// context there is a leak or a split brain. So every singleton goes through here.

const registry = globalThis as unknown as Record<symbol, unknown>;

function keyOf(name: string): symbol {
  return Symbol.for(`folio.${name}`);
}

/** The process's `name`, made by `create` the first time it is asked for. */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = keyOf(name);
  if (!(key in registry)) registry[key] = create();
  return registry[key] as T;
}

/** Forgets `name` (after closing it), so the next use makes a new one. */
export function dropProcessSingleton(name: string): void {
  delete registry[keyOf(name)];
}

/** The current `name` without making one. */
export function existingProcessSingleton<T>(name: string): T | undefined {
  return registry[keyOf(name)] as T | undefined;
}
