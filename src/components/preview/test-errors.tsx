'use client';
import { useState } from 'react';
import { sendServerTestError } from '../../lib/editor/actions/test-errors';

function Thrower(): never {
  throw new Error('Folio test error from the browser (sent on purpose from the preview)');
}

/** Like Sentry's example page: whoever deploys Folio can check that reporting works. */
export function TestErrors() {
  const [throwInBrowser, setThrowInBrowser] = useState(false);
  return (
    <section className="test-errors" aria-labelledby="test-errors">
      <h2 id="test-errors">Check error reporting</h2>
      <p>
        Each button causes an error on purpose; it should appear in the server log and in Sentry.
      </p>
      <form action={sendServerTestError} className="inline-form">
        <button type="submit">Send a test error from the server</button>
      </form>
      <button type="button" onClick={() => setThrowInBrowser(true)}>
        Send a test error from the browser
      </button>
      {throwInBrowser ? <Thrower /> : null}
    </section>
  );
}
