// Starts what the e2e suite runs against, the way the README starts it: `bun run start` on a
// throw-away database of the run's engine (FOLIO_TEST_ENGINE) and a port the OS picks, reporting to a real envelope receiver on
// 127.0.0.1 as its Sentry. The addresses reach the tests (other processes) through the
// environment, which Playwright hands to its workers after this has run. The e2e editor is made
// here, once: the fixtures mint its sessions per test, and adding it again per test (as the
// specs once did) would end every other test's session and hash a password each time. Nothing
// here is a fixed path or port, so the SQLite and PostgreSQL halves can run at the same time.
import { openDatabase } from '../../src/lib/data/db';
import { addEditor } from '../../src/lib/editors/accounts';
import { startFolio } from '../harness';
import { startEnvelopeReceiver } from '../sentry-receiver';
import { E2E_EDITOR } from './editor-account';

export default async function globalSetup() {
  const receiver = startEnvelopeReceiver();
  const folio = await startFolio({
    env: {
      SENTRY_DSN: receiver.dsn,
      WAKU_PUBLIC_SENTRY_DSN: receiver.dsn,
      SENTRY_ENVIRONMENT: 'e2e',
      // Every request and page view traced (deployed, the default is one in ten): the specs
      // follow traces from the browser to the server.
      SENTRY_TRACES_SAMPLE_RATE: '1',
      // Scheduled pages go out within a second (the default, 15 s, would make tests wait).
      SCHEDULE_CHECK_SECONDS: '1',
    },
  });
  const db = await openDatabase(folio.databaseUrl, { migrate: false, poolSize: 1 });
  try {
    await addEditor(db, E2E_EDITOR.email, E2E_EDITOR.password);
  } finally {
    await db.close();
  }
  process.env.E2E_BASE_URL = folio.url;
  process.env.E2E_DATABASE_URL = folio.databaseUrl;
  process.env.E2E_SENTRY_URL = receiver.url;
  return async () => {
    await folio.stop();
    receiver.stop();
    // The server's own errors are the tests' business: a spec that expects one says so.
    const unexpected = folio
      .unexpectedErrors()
      .filter((line) => !JSON.stringify(line).includes('Folio test error'));
    if (unexpected.length > 0)
      throw new Error(
        `the server reported unexpected errors:\n${unexpected.map((l) => JSON.stringify(l)).join('\n')}`,
      );
  };
}
