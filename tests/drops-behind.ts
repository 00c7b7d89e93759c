// Whether this process drops its throw-away databases behind its tests (tests/databases.ts):
// bun test's preload (tests/setup.ts) turns it on and waits for the drops after the last file.
// Other users of the harness (the e2e setup, benches, scripts that exit when done) keep the
// old way: a database is gone when `stop` or `dispose` returns. No imports, so the preload
// loads nothing of Folio's.

type Settler = () => Promise<void>;

let behind = false;
const settlers: Settler[] = [];

export function dropBehind(): void {
  behind = true;
}

export function dropsBehind(): boolean {
  return behind;
}

/** Registers what `settleDropsBehind` waits for. */
export function onSettle(settler: Settler): void {
  settlers.push(settler);
}

/** Waits for every drop made behind the tests; throws the first that failed. */
export async function settleDropsBehind(): Promise<void> {
  for (const settler of settlers) await settler();
}
