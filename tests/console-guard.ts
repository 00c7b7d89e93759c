// A stray console.error fails the test that printed it (bun test preloads this, through
// tests/setup.ts). A test that expects an error line — Folio logs unexpected errors with
// console.error — collects it with expectConsoleErrors() and looks at what arrived.
import { afterEach } from 'bun:test';
import { format } from 'node:util';

const strays: string[] = [];
let collector: string[] | null = null;
const original = console.error.bind(console);

console.error = (...args: unknown[]) => {
  const line = format(...args);
  if (collector) {
    collector.push(line);
    return;
  }
  strays.push(line);
  original(...args);
};

/** From now until the test ends, console.error lines are collected here instead of failing it. */
export function expectConsoleErrors(): { lines: () => string[] } {
  collector = [];
  const lines = collector;
  return { lines: () => [...lines] };
}

afterEach(() => {
  collector = null;
  if (strays.length > 0) {
    const printed = strays.splice(0);
    throw new Error(`console.error was called during the test:\n${printed.join('\n')}`);
  }
});
