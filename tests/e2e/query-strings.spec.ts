// A public page reached with a query string it does not use (a tracking parameter, a junk
// one) is the page rendered without it, from the one cached entry (fourth hostile review).
// What only a browser shows: the page hydrates without a complaint although the address it
// holds has a query the server's render did not, and routes on the client from there.
import { expect, pageDataPathOf, test } from './fixtures';

test('a page opened with a tracking parameter hydrates and routes on the client', async ({
  page,
}) => {
  const response = await page.goto('/about?utm_source=newsletter&x=%3Cb%3E');
  expect(response?.status()).toBe(200);
  await expect(page.locator('main h1')).toHaveText(/About/);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // The address bar keeps what the visitor followed; the page knows nothing of it.
  expect(page.url()).toContain('utm_source=newsletter');
  expect(await page.content()).not.toContain('<b>');

  const pageData: string[] = [];
  page.on('response', (answer) => {
    const path = pageDataPathOf(answer.url());
    if (path) pageData.push(`${path} ${answer.status()}`);
  });
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  await page.locator('nav[aria-label="Site"] li a', { hasText: 'Contact' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.locator('main h1')).toHaveText(/Contact/i);
  const sameDocument = await page.evaluate(
    () => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true,
  );
  expect(sameDocument, `page data answers: ${pageData.join(', ')}`).toBe(true);
});
