// `bun run stack [--instances 2] [--port 6081] [--balancer-port 8080] [--instance-port 3001]
// [--postgres postgres://postgres@127.0.0.1:5432/postgres] [--keep-database] [--quiet]`:
// the deployment recipe on one machine for trying it (README "Try N instances on one machine",
// docs/decisions/0048). PostgreSQL (DATABASE_URL, or a new database on the local server, dropped
// at the end unless --keep-database), migrations, N Folio instances, HAProxy in front of them
// and Varnish in front of HAProxy, all on 127.0.0.1. It prints the addresses, waits until
// everything answers, and on Ctrl-C or SIGTERM stops everything it started, by pid.
import { parseArgs } from 'node:util';
import { findHaproxy } from './stack/haproxy';
import { DEFAULT_POSTGRES_ADMIN_URL, type RunningStack, startStack } from './stack/stack';
import { findVarnishd } from './stack/varnish';

const USAGE = `usage: bun run stack [--instances N] [--port P] [--balancer-port P] [--instance-port P]
                     [--postgres ADMIN_URL] [--keep-database] [--quiet]
  --instances N        Folio instances (1-16, default 2)
  --port P             Varnish, the site's address (default 6081)
  --balancer-port P    HAProxy (default 8080)
  --instance-port P    the first instance's port; the others follow (default 3001)
  --postgres URL       where to make a database when DATABASE_URL is unset
                       (default ${DEFAULT_POSTGRES_ADMIN_URL})
  --keep-database      keep the database it made (its URL is printed)
  --quiet              do not show the processes' own lines`;

function portOf(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`stack: ${flag} must be a port from 1 to 65535\n${USAGE}`);
    process.exit(2);
  }
  return port;
}

let parsed: ReturnType<typeof parseOptions>;
function parseOptions() {
  return parseArgs({
    options: {
      instances: { type: 'string', default: '2' },
      port: { type: 'string' },
      'balancer-port': { type: 'string' },
      'instance-port': { type: 'string' },
      postgres: { type: 'string' },
      'keep-database': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
}
try {
  parsed = parseOptions();
} catch (error) {
  console.error(`stack: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
const { values } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const instances = Number(values.instances);
if (!Number.isInteger(instances) || instances < 1 || instances > 16) {
  console.error(`stack: --instances must be a whole number from 1 to 16\n${USAGE}`);
  process.exit(2);
}
const missing = [findHaproxy() ? null : 'haproxy', findVarnishd() ? null : 'varnish'].filter(
  (name) => name !== null,
);
if (missing.length > 0) {
  console.error(
    `stack: needs Debian's ${missing.join(' and ')}: apt-get install -y ${missing.join(' ')}`,
  );
  process.exit(1);
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const pad = (label: string) => `stack: ${label}`.padEnd(36);
console.log(
  `stack: starting ${instances} instances on ${databaseUrl ? 'DATABASE_URL' : 'a new database'} (bun run start builds first if the build is missing or stale)`,
);
let stack: RunningStack | null = null;
let stopping = false;
const starting = new AbortController();
async function stop() {
  if (stopping) return;
  stopping = true;
  console.log('stack: stopping everything it started');
  // While it starts, startStack stops what it has started at its next step and throws.
  if (!stack) return starting.abort();
  await stack.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

try {
  stack = await startStack({
    databaseUrl,
    postgresAdminUrl: values.postgres,
    keepDatabase: values['keep-database'],
    instances,
    port: portOf(values.port, 6081, '--port'),
    balancerPort: portOf(values['balancer-port'], 8080, '--balancer-port'),
    firstInstancePort: portOf(values['instance-port'], 3001, '--instance-port'),
    onLine: values.quiet ? undefined : (name, line) => console.log(`[${name}] ${line}`),
    signal: starting.signal,
  });
} catch (error) {
  if (stopping) process.exit(0);
  console.error(`stack: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
if (stopping) {
  await stack.stop();
  process.exit(0);
}
console.log(
  [
    '',
    `${pad('the site, through Varnish:')}${stack.url}/`,
    `${pad('HAProxy (no cache):')}${stack.balancerUrl}/`,
    ...stack.instances.map(
      (instance) => `${pad(`folio${instance.index} (pid ${instance.serverPid}):`)}${instance.url}/`,
    ),
    `${pad('database:')}${stack.databaseUrl}${values['keep-database'] || databaseUrl ? '' : ' (dropped at the end)'}`,
    `stack: an editor: printf '%s\\n' 'a long passphrase' | DATABASE_URL=${stack.databaseUrl} bun run folio editor add you@example.com`,
    // With PURGE_URL the CLI's writes reach Varnish too (an instance sends them within a
    // second); without it a page published from the CLI stays cached an hour (hostile pass).
    `stack: the CLI on this site: DATABASE_URL=${stack.databaseUrl} PURGE_URL=${stack.url}/ bun run folio <command>`,
    'stack: Ctrl-C stops everything.',
  ].join('\n'),
);
// An instance or a proxy that dies on its own is said; the rest keeps running (as HAProxy does).
for (const child of [stack.haproxy, stack.varnish, ...stack.instances])
  void child.exited.then((code) => {
    if (!stopping) console.error(`stack: ${child.name} exited (${code})`);
  });
