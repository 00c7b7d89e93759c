// bun test preload: unit tests never touch data/folio.db, Sentry stays off unless a test turns
// it on against its own receiver, and a stray console.error fails the test (console-guard.ts).
import './console-guard';

process.env.DATABASE_URL = 'sqlite::memory:';
delete process.env.SENTRY_DSN;
delete process.env.SITE_URL;
delete process.env.TRUST_PROXY;
