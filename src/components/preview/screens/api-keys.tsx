// Owns /preview?api-keys: keys to the content API (issue 29, docs/decisions/0047), for
// Administrators — a form to make one (shown once), the list (name, prefix, maker, made, last
// used, revoked) and each live key's Revoke button; and the limits with and without a key.
import 'server-only';
import { apiKeysDatabase, listApiKeys } from '../../../lib/api-keys/api-keys';
import { PREVIEW_DASHBOARD, WEBHOOKS_SCREEN } from '../../../lib/http/routes';
import { getEnv } from '../../../lib/runtime/env';
import { ApiKeyForm, RevokeApiKeyButton } from '../api-key-forms';
import { LocalTime } from '../local-time';
import type { ScreenProps } from './asked';

/** Fixed words for fixed keys: a crafted ?notice= shows nothing. */
const NOTICES: Record<string, string> = {
  'key-revoked': 'Key revoked. Requests with it are refused within a few seconds.',
  'key-gone': 'That key had already been revoked.',
};

export async function ApiKeysScreen({ asked: { notice } }: ScreenProps) {
  const keys = await listApiKeys(await apiKeysDatabase());
  const env = getEnv();
  const text = notice === null ? undefined : NOTICES[notice];
  const window = env.API_RATE_WINDOW_SECONDS === 60 ? 'minute' : `${env.API_RATE_WINDOW_SECONDS} s`;
  const count = new Intl.NumberFormat('en').format;
  return (
    <>
      <title>API keys · Folio preview</title>
      <h1>API keys</h1>
      {text ? (
        <p role="status" className="notice">
          {text}
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a> · <a href={WEBHOOKS_SCREEN}>Webhooks</a>{' '}
        to tell other systems of changes
      </p>
      <p>
        The content API (<code>/api/v1</code>) shows published content to anyone. Without a key a
        client may make {count(env.API_RATE_LIMIT)} requests a {window} from one address; with a
        key, {count(env.API_KEY_RATE_LIMIT)} a {window} for the key. A key opens nothing else. From
        the command line: <code>bun run folio api-key</code>.
      </p>
      <h2>Make a key</h2>
      <ApiKeyForm />
      <h2 id="api-keys-list">
        Keys <small>({keys.filter((key) => key.revokedAt === null).length} in use)</small>
      </h2>
      {keys.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <table className="page-table api-keys-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Begins</th>
              <th scope="col">Made</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>
                  <LocalTime iso={key.createdAt} />
                  {key.createdBy ? (
                    <>
                      <br />
                      <small>by {key.createdBy}</small>
                    </>
                  ) : null}
                </td>
                <td>{key.lastUsedAt ? <LocalTime iso={key.lastUsedAt} /> : 'Never'}</td>
                <td className="row-actions">
                  {key.revokedAt === null ? (
                    <RevokeApiKeyButton id={key.id} name={key.name} />
                  ) : (
                    <>
                      Revoked <LocalTime iso={key.revokedAt} />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
