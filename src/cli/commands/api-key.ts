// Owns `api-key add`, `api-key list` and `api-key revoke`: keys to the content API
// (docs/decisions/0047), as the API keys screen makes them. Loaded only when one of them runs.
import 'server-only';
import { ApiKeyError, createApiKey, listApiKeys, revokeApiKey } from '../../lib/api-keys/api-keys';
import { CliError, one, type Run, UsageError } from '../command';

/** Prints the key alone on stdout (for a pipe), and what it is on stderr: shown this once. */
export const apiKeyAdd: Run = async ({ positionals }, { db, io }) => {
  const name = positionals.join(' ');
  try {
    const { key, apiKey } = await createApiKey(db, { name, actor: null });
    io.stdout(`${key}\n`);
    io.stderr(
      `API key ${apiKey.id} (${apiKey.name}) made: copy it now, it is not shown again. Send it as Authorization: Bearer <key>.\n`,
    );
  } catch (error) {
    if (error instanceof ApiKeyError)
      throw error.code === 'invalid' ? new UsageError(error.message) : new CliError(error.message);
    throw error;
  }
};

export const apiKeyList: Run = async (_args, { db, io }) => {
  const keys = await listApiKeys(db);
  if (keys.length === 0) io.stdout('no API keys\n');
  for (const key of keys)
    io.stdout(
      `${String(key.id).padStart(5)}  ${key.prefix}…  ${key.name.padEnd(24)}  made ${key.createdAt} by ${key.createdBy ?? 'cli'}  ${
        key.revokedAt ? `revoked ${key.revokedAt}` : `last used ${key.lastUsedAt ?? 'never'}`
      }\n`,
    );
};

export const apiKeyRevoke: Run = async ({ positionals }, { db, io }) => {
  const text = one(positionals);
  const which = /^\d{1,15}$/.test(text) ? Number(text) : text;
  if (which === 0 || (typeof which === 'string' && !which.startsWith('folio_')))
    throw new UsageError('name a key by its id or its prefix (folio_…), as `api-key list` shows');
  try {
    const { apiKey, revoked } = await revokeApiKey(db, which, null);
    if (!revoked) throw new CliError(`API key ${apiKey.id} (${apiKey.name}) was already revoked`);
    io.stdout(`API key ${apiKey.id} (${apiKey.name}) revoked\n`);
  } catch (error) {
    if (error instanceof ApiKeyError) throw new CliError(error.message);
    throw error;
  }
};
