// Owns performance spans around our own work (database queries, Markdown rendering). Spans
// are made only inside a request's trace, so the CLI and tests create none.
import { startSpan } from '@sentry/core';

export function traced<T>(op: string, name: string, work: () => T): T {
  return startSpan({ op, name, onlyIfParent: true }, work);
}
