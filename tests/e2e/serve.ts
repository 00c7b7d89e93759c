// Starts the built server for the e2e suite on a fresh database seeded with the demo content.
import { rmSync } from 'node:fs';
import { databasePathFromUrl, getEnv } from '../../src/lib/env';

const dbPath = databasePathFromUrl(getEnv().DATABASE_URL);
for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });

const { contentStore } = await import('../../src/lib/content');
const { seedDemoContent } = await import('../../src/lib/seed');
const { startServer } = await import('../../server');
seedDemoContent(contentStore());
await startServer();
