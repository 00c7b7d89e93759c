// Owns /preview/<slug>?confirm=…: the confirmation page of a command that cannot be taken back
// (without JavaScript there is no dialog).
import 'server-only';
import { previewPath } from '../../../lib/http/routes';
import {
  CONFIRMABLE_COMMANDS,
  type ConfirmableCommand,
  commandApplies,
  confirmationOf,
  STATE_LABELS,
} from '../preview-banner';
import type { ScreenProps } from './asked';
import { pageOf, publishedCount } from './page-of';

/** The command ?confirm= names, if it is one a page can be asked to confirm. */
export function confirmableCommand(params: URLSearchParams): ConfirmableCommand | undefined {
  return CONFIRMABLE_COMMANDS.find((command) => command === params.get('confirm'));
}

export async function ConfirmationScreen({ asked }: ScreenProps) {
  const page = await pageOf(asked);
  const command = confirmableCommand(asked.params);
  if (!command) return null;
  const { label, question, form } = confirmationOf(command, page, await publishedCount(page));
  // An old link, or one typed by hand, for a command this page's state does not offer.
  if (!commandApplies(command, page))
    return (
      <section className="card confirm-page">
        <title>{`Nothing to ${command} · Folio preview`}</title>
        <h1>Nothing to {command}</h1>
        <p>
          “{page.title}”: {STATE_LABELS[page.state]}. This does not apply to it now.
        </p>
        <p>
          <a href={previewPath(page.slug)}>Back to the page</a>
        </p>
      </section>
    );
  return (
    <section className="card confirm-page">
      <title>{`${label}? · Folio preview`}</title>
      <h1>{label}?</h1>
      <p>{question}</p>
      <div className="confirm-actions">
        {form}
        <a href={previewPath(page.slug)}>Cancel</a>
      </div>
    </section>
  );
}
