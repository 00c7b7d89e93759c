// One version line for every Sentry package: the browser's @sentry/react, the server's
// @sentry/bun and the @sentry/core our own code imports must resolve to one @sentry/core. With
// @sentry/react a minor ahead of @sentry/bun, the browser chunks carried three copies of the
// core (issue 23); npm has no @sentry/bun past 11.8.0, so the browser SDK is held to it.
import { expect, test } from 'bun:test';
import path from 'node:path';

const root = path.resolve(import.meta.dir, '../..');

function versionOf(pkg: string, from: string): { version: string; file: string } {
  const file = Bun.resolveSync(`${pkg}/package.json`, from);
  return { version: require(file).version as string, file };
}

test('every Sentry package the project uses resolves to one @sentry/core, of one version', () => {
  const manifest = require(path.join(root, 'package.json'));
  const declared = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })
    .filter(([name]) => name.startsWith('@sentry/'))
    .map(([, version]) => version);
  expect(new Set(declared).size).toBe(1);

  const cores = new Set<string>();
  for (const sdk of ['@sentry/react', '@sentry/bun']) {
    const sdkDir = path.dirname(versionOf(sdk, root).file);
    cores.add(versionOf('@sentry/core', sdkDir).file);
    // The browser SDK's own dependency on the core goes through @sentry/browser.
    if (sdk === '@sentry/react') {
      const browserDir = path.dirname(versionOf('@sentry/browser', sdkDir).file);
      cores.add(versionOf('@sentry/core', browserDir).file);
    }
  }
  cores.add(versionOf('@sentry/core', root).file);
  expect([...cores]).toEqual([Bun.resolveSync('@sentry/core/package.json', root)]);
  expect(versionOf('@sentry/core', root).version).toBe(declared[0] as string);
});
