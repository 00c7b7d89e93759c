// The second person of the co-editing specs: a browser context of their own, signed in as
// another editor (a session minted as fixtures.ts mints the first's).
import type { Browser } from '@playwright/test';
import { openDatabase } from '../../src/lib/data/db';
import { addEditor, createSession } from '../../src/lib/editors/accounts';
import { databaseUrl, sessionCookie, watchPageErrors } from './fixtures';

export const OTHER = { email: 'e2e-coeditor@example.com', password: 'e2e coeditor battery staple' };

/** A browser context signed in as OTHER, at `at`; `problems` are the errors its page logged. */
export async function otherPerson(browser: Browser, baseURL: string, at: string) {
  const db = await openDatabase(databaseUrl(), { migrate: false, poolSize: 1 });
  try {
    let [row] = await db.query<{ id: number }>`SELECT id FROM editors WHERE email = ${OTHER.email}`;
    if (!row) {
      await addEditor(db, OTHER.email, OTHER.password, { role: 'editor' });
      [row] = await db.query<{ id: number }>`SELECT id FROM editors WHERE email = ${OTHER.email}`;
    }
    if (!row) throw new Error('the second editor was not made');
    const session = await createSession(db.query, Number(row.id));
    const context = await browser.newContext();
    await context.addCookies([
      sessionCookie(baseURL, { value: session.id, expiresAt: session.expiresAt }),
    ]);
    const page = await context.newPage();
    const problems = watchPageErrors(page);
    await page.goto(at);
    return { page, context, problems, session: session.id };
  } finally {
    await db.close();
  }
}
