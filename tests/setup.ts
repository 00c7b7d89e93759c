// bun test preload: unit tests never touch data/folio.db, and Sentry stays off unless a test
// turns it on against its own receiver.
process.env.DATABASE_URL = 'sqlite::memory:';
delete process.env.SENTRY_DSN;
delete process.env.SITE_URL;
