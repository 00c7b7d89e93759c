// What the deployment recipe (docs/deploy, README "Scale out") promises, checked against Folio
// itself: an instance listens only where HOST says, warns when it believes a proxy while
// reachable from anywhere, and the nginx file in front lets through every body Folio takes
// (fourth hostile review: nginx capped bodies at 1 MiB and reads at 30 s while Folio took
// 4 MiB forms and 11 MB uploads, and instances listened on every interface).
// test-engines: the SQLite half only — where an instance listens and what nginx lets through
// are the same on either engine.
import { afterAll, describe, expect, test } from 'bun:test';
import { connect } from 'node:net';
import path from 'node:path';
import { REQUEST_BODY_MAX_BYTES } from '../../src/lib/content/field-limits';
import { parseEnv } from '../../src/lib/runtime/env';
import { type RunningFolio, startFolio, waitFor } from '../harness';

const root = path.resolve(import.meta.dir, '../..');

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.setTimeout(5_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

const PROXY_WARNING = /TRUST_PROXY is set and Folio listens on every interface/;

describe('where an instance listens', () => {
  const servers: RunningFolio[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.stop())), 30_000);

  test('HOST=127.0.0.1: reachable there only, and no warning behind a proxy', async () => {
    const server = await startFolio({ env: { HOST: '127.0.0.1', TRUST_PROXY: '1' } });
    servers.push(server);
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    expect(await accepts('127.0.0.1', server.port)).toBe(true);
    // Another loopback address of the same machine: a socket bound to 127.0.0.1 refuses it,
    // as it refuses every other interface.
    expect(await accepts('127.0.0.2', server.port)).toBe(false);
    expect(server.output()).not.toMatch(PROXY_WARNING);
    // Absolute links (here the content API's site address; invitations alike) name the scheme
    // the proxy says the visitor used (third hostile pass: http:// behind an https proxy).
    const siteUrlSaid = async (headers: Record<string, string>) =>
      ((await (await fetch(`${server.url}/api/v1/site`, { headers })).json()) as { url: string })
        .url;
    expect(await siteUrlSaid({ 'x-forwarded-proto': 'https' })).toBe(
      `https://127.0.0.1:${server.port}/`,
    );
    expect(await siteUrlSaid({})).toBe(`http://127.0.0.1:${server.port}/`);
  }, 60_000);

  test('unset HOST listens everywhere, and with TRUST_PROXY says why that is unsafe', async () => {
    const server = await startFolio({ env: { TRUST_PROXY: '1' } });
    servers.push(server);
    expect(await accepts('127.0.0.2', server.port)).toBe(true);
    // On stderr, read beside stdout's `listening`: waited for, not assumed read.
    const warning = await waitFor(() =>
      server.logLines().find((line) => PROXY_WARNING.test(String(line.msg))),
    );
    expect(warning.level).toBe('warn');
  }, 60_000);

  test('a HOST that is no address stops the start with its name', () => {
    expect(() => parseEnv({ HOST: 'http://example.com/' })).toThrow(/HOST: must be an IP address/);
    expect(parseEnv({ HOST: '::1' }).HOST).toBe('::1');
  });
});

describe('docs/deploy agrees with Folio', () => {
  test("nginx lets through the largest body Folio takes, and waits for an upload's work", async () => {
    const conf = await Bun.file(path.join(root, 'docs/deploy/nginx.conf')).text();
    const size = /client_max_body_size\s+(\d+)([km]?);/.exec(conf);
    expect(size).not.toBeNull();
    const unit = { '': 1, k: 1024, m: 1024 * 1024 }[(size?.[2] ?? '') as '' | 'k' | 'm'];
    const nginxLimit = Number(size?.[1]) * unit;
    const largestUpload = (parseEnv({}).MEDIA_MAX_MB + 1) * 1024 * 1024;
    expect(nginxLimit).toBeGreaterThanOrEqual(Math.max(REQUEST_BODY_MAX_BYTES, largestUpload));
    const readTimeout = Number(/proxy_read_timeout\s+(\d+)s;/.exec(conf)?.[1]);
    expect(readTimeout).toBeGreaterThanOrEqual(60);
  });

  test('the systemd unit keeps each instance on 127.0.0.1, behind nginx', async () => {
    const unit = await Bun.file(path.join(root, 'docs/deploy/folio@.service')).text();
    expect(unit).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
  });
});

describe('a start that cannot go on says why in one line', () => {
  /** `bun run start` with these variables; its exit code and everything it printed. */
  async function start(env: Record<string, string>) {
    const run = Bun.spawn(['bun', 'run', 'start'], {
      cwd: root,
      env: { ...process.env, PORT: '0', DATABASE_URL: 'sqlite::memory:', ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const code = await Promise.race([run.exited, Bun.sleep(20_000).then(() => 'still running')]);
    if (code === 'still running') run.kill();
    const said = (await new Response(run.stderr).text()) + (await new Response(run.stdout).text());
    return { code, lines: said.trim().split('\n') };
  }

  // Fourth hostile review of issue 23: a bad variable printed the bundle's source and a stack.
  test.each([
    ['PORT=abc', { PORT: 'abc' }, /cannot start: Invalid environment: PORT: /],
    [
      'HOST=not a host',
      { HOST: 'not a host' },
      /cannot start: Invalid environment: HOST: must be an IP address/,
    ],
    [
      'SMTP_URL without MAIL_FROM',
      { SMTP_URL: 'smtp://folio:s3cret@127.0.0.1:2525', MAIL_FROM: '' },
      /^cannot start: Invalid environment: MAIL_FROM: is required when SMTP_URL is set[^3]*$/,
    ],
    [
      'HOST=192.0.2.1 (no address of this machine)',
      { HOST: '192.0.2.1' },
      /cannot start: HOST 192\.0\.2\.1 is not an address of this machine/,
    ],
  ])(
    '%s',
    async (_name, env, words) => {
      const { code, lines } = await start(env);
      expect(code).toBe(1);
      // Folio's lines are JSON; the rest is `bun run`'s own ("$ bun scripts/start.ts",
      // "error: script "start" exited with code 1"). No source excerpt, no stack.
      const ours = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
      expect(ours.filter((line) => line.level === 'error').map((line) => line.msg)).toEqual([
        expect.stringMatching(words),
      ]);
      const BUN_RUN = /^\$ bun scripts\/start\.ts$|^error: script "start" exited with code 1$/;
      expect(lines.filter((line) => !line.startsWith('{') && !BUN_RUN.test(line))).toEqual([]);
    },
    30_000,
  );
});
