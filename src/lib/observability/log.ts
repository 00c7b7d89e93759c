// Owns structured logging: one JSON object per line on stdout/stderr. In development (`bun run
// dev`) an error's stack is for a person reading the terminal: the line leaves it out and it
// follows as plain text, once.

import { DEVELOPMENT } from '../waku/development';

type Fields = Record<string, unknown>;

function serialise(fields: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] =
      value instanceof Error
        ? { name: value.name, message: value.message, stack: value.stack }
        : value;
  }
  return out;
}

function write(level: 'info' | 'warn' | 'error', msg: string, fields: Fields = {}) {
  const serialised = serialise(fields);
  const stacks: string[] = [];
  if (DEVELOPMENT)
    for (const [key, value] of Object.entries(serialised)) {
      const withStack = value as { stack?: unknown } | null;
      if (typeof withStack?.stack === 'string' && withStack.stack !== '') {
        stacks.push(withStack.stack);
        serialised[key] = { ...withStack, stack: undefined };
      }
    }
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...serialised });
  if (level === 'info') console.log(line);
  else console.error([line, ...stacks].join('\n'));
}

export const log = {
  info: (msg: string, fields?: Fields) => write('info', msg, fields),
  warn: (msg: string, fields?: Fields) => write('warn', msg, fields),
  error: (msg: string, fields?: Fields) => write('error', msg, fields),
};
