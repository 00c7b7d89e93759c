// Starts the built server for the e2e suite on a fresh database seeded with the demo content,
// reporting to a real envelope receiver on 127.0.0.1 (E2E_SENTRY_PORT) as its Sentry.
import { rmSync } from 'node:fs';
import { startEnvelopeReceiver } from '../sentry-receiver';

const receiver = startEnvelopeReceiver({ port: Number(process.env.E2E_SENTRY_PORT ?? 3199) });
process.env.SENTRY_DSN = receiver.dsn;
process.env.WAKU_PUBLIC_SENTRY_DSN = receiver.dsn;
process.env.SENTRY_ENVIRONMENT = 'e2e';

const { databasePathFromUrl, getEnv } = await import('../../src/lib/env');
const dbPath = databasePathFromUrl(getEnv().DATABASE_URL);
for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });

const { contentStore } = await import('../../src/lib/content');
const { seedDemoContent } = await import('../../src/lib/seed');
const { startServer } = await import('../../server');
seedDemoContent(contentStore());
await startServer();
