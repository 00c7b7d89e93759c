// Child process for the crash test (argument: DATABASE_URL): publishes new versions of five pages as fast as it can and
// prints the number of each acknowledged (committed) round, until it is killed.
import { createContentStore } from '../../src/lib/content/content';
import { openDatabase } from '../../src/lib/data/db';

const store = createContentStore(await openDatabase(process.argv[2] ?? ''));
for (let round = 1; ; round++) {
  for (const slug of ['crash-a', 'crash-b', 'crash-c', 'crash-d', 'crash-e']) {
    await store.putPage(
      { slug, title: `Round ${round}`, summary: '', body: `version ${round} of ${slug}` },
      { publish: true },
    );
  }
  process.stdout.write(`${round}\n`);
}
