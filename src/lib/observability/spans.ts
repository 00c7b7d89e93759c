// Owns performance spans around our own work (database queries, Markdown rendering). Spans
// are made only inside a request's trace, so the CLI and tests create none — and need not load
// the SDK for it: the server's SDK hands its startSpan over when it starts (sentry-server.ts).
// Importing @sentry/core here was a third of a CLI publish's time (issue 23: 38–114 ms of it).
import { existingProcessSingleton, processSingleton } from '../runtime/process-singleton';

type SpanOptions = { op: string; name: string; onlyIfParent: boolean };
type StartSpan = <T>(options: SpanOptions, work: () => T) => T;

const STARTER = 'span-starter';

/** From now on `traced` makes spans with this (the server SDK's `startSpan`). */
export function traceWith(startSpan: StartSpan): void {
  processSingleton(STARTER, () => ({ startSpan })).startSpan = startSpan;
}

export function traced<T>(op: string, name: string, work: () => T): T {
  const starter = existingProcessSingleton<{ startSpan: StartSpan }>(STARTER);
  return starter ? starter.startSpan({ op, name, onlyIfParent: true }, work) : work();
}
