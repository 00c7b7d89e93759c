// docs/deploy/nginx.conf, the TLS front of two instances (README "Scale out"), checked by nginx
// itself where nginx is installed (Debian's `nginx`; CI does not install it, and says so by the
// skip): the file is a server block for an http context, so it is included in one, with a
// throw-away certificate in place of the real one's paths.
import { expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const NGINX = Bun.which('nginx') ?? Bun.which('nginx', { PATH: '/usr/sbin:/sbin' });
const OPENSSL = Bun.which('openssl');
const SHIPPED = path.resolve(import.meta.dir, '../../docs/deploy/nginx.conf');

test.skipIf(!NGINX || !OPENSSL)('nginx takes the shipped configuration (nginx -t)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-nginx-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    const made = Bun.spawnSync(
      [
        OPENSSL as string,
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=example.com',
      ],
      { stdout: 'pipe', stderr: 'pipe' },
    );
    expect(made.exitCode).toBe(0);
    const site = readFileSync(SHIPPED, 'utf8')
      .replace('/etc/ssl/example.com/fullchain.pem', cert)
      .replace('/etc/ssl/example.com/privkey.pem', key);
    // `http2 on;` is nginx 1.25.1's spelling; Debian 12's 1.22 knows only `listen … http2`.
    const version = Bun.spawnSync([NGINX as string, '-v'], { stderr: 'pipe' }).stderr.toString();
    const [major = 0, minor = 0] = (/nginx\/(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number);
    const forThisNginx = major > 1 || minor >= 25 ? site : site.replace(/^\s*http2 on;\n/m, '');
    writeFileSync(path.join(dir, 'site.conf'), forThisNginx);
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      `pid ${path.join(dir, 'nginx.pid')};\nerror_log stderr;\nevents {}\nhttp {\n  include ${path.join(dir, 'site.conf')};\n}\n`,
    );
    const check = Bun.spawnSync([NGINX as string, '-t', '-c', path.join(dir, 'nginx.conf')], {
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(`${check.stdout}${check.stderr}`).toContain('test is successful');
    // The co-editing WebSocket's upgrade is passed on (docs/decisions/0050).
    expect(site).toContain('proxy_set_header Upgrade $http_upgrade;');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
