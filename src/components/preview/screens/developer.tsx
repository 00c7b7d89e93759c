// Owns /preview?developer: tools for whoever deploys Folio, off the editors' dashboard (issue
// 26) — today, checking that errors reach the log and Sentry.
import 'server-only';
import { TestErrors } from '../test-errors';

export function DeveloperScreen() {
  return (
    <>
      <title>Developer tools · Folio preview</title>
      <h1>Developer tools</h1>
      <TestErrors />
    </>
  );
}
