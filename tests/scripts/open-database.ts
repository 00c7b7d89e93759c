// `bun tests/scripts/open-database.ts <DATABASE_URL>`: opens (and migrates) a database as a
// starting server does, then closes it; exits 1 with the error's message if it could not.
import { openDatabase } from '../../src/lib/data/db';

try {
  const db = await openDatabase(process.argv[2] ?? '', { migrate: true });
  await db.close();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
