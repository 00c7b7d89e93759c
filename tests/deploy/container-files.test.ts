// The container image and the compose file (issue 29, docs/decisions/0048), checked without a
// container runtime (none runs here or in CI, and no image registry is reachable): the
// Dockerfile by dockerfile-utils' validator (the one VS Code's Docker support uses: unknown
// instructions, bad flags, bad ports…) and by what the house needs of it; compose.yaml by
// dclint (the Compose specification's schema, and its rules); and the rewrites compose.yaml
// makes of the shipped HAProxy and Varnish files by haproxy -c and varnishd -C themselves.
// Nothing here builds the image or starts a container: see the decision record for what that
// leaves unchecked.
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DCLinter } from 'dclint';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { findHaproxy } from '../../scripts/stack/haproxy';
import { findVarnishd } from '../../scripts/stack/varnish';

const ROOT = path.resolve(import.meta.dir, '../..');
const DOCKERFILE = path.join(ROOT, 'Dockerfile');
const COMPOSE = path.join(ROOT, 'docs/deploy/compose.yaml');
const dockerfileText = readFileSync(DOCKERFILE, 'utf8');
const dockerfile = DockerfileParser.parse(dockerfileText);

/** The instructions of the stage named `name` (from its FROM to the next). */
function stage(name: string): Instruction[] {
  const stages: Instruction[][] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  const found = stages.find((each) =>
    new RegExp(`\\sAS\\s+${name}$`, 'i').test(each[0]?.getArgumentsContent() ?? ''),
  );
  if (!found) throw new Error(`the Dockerfile has no stage ${name}`);
  return found;
}

function args(instruction: Instruction): string[] {
  return instruction.getArguments().map((argument) => argument.getValue());
}

function fromFlag(instruction: Instruction): string | undefined {
  const flags =
    (
      instruction as Instruction & {
        getFlags?: () => { getName(): string; getValue(): string | null }[];
      }
    ).getFlags?.() ?? [];
  return flags.find((flag) => flag.getName() === 'from')?.getValue() ?? undefined;
}

/** .dockerignore's patterns, as the build reads them (no negations are used here). */
const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
function isIgnored(file: string): boolean {
  return ignored.some(
    (pattern) => new Bun.Glob(pattern).match(file) || file.startsWith(`${pattern}/`),
  );
}

describe('the Dockerfile', () => {
  test('has no error or warning by dockerfile-utils', () => {
    expect(
      validate(dockerfileText).map((each) => `${each.range.start.line + 1}: ${each.message}`),
    ).toEqual([]);
  });

  test("builds on Bun's image of the version CI installs, pinned", () => {
    const ci = /BUN_VERSION="([^"]+)"/.exec(readFileSync(path.join(ROOT, '.ci/run'), 'utf8'))?.[1];
    const pinned = dockerfile
      .getARGs()
      .find((arg) => arg.getProperty()?.getName() === 'BUN_VERSION')
      ?.getProperty()
      ?.getValue();
    expect(pinned).toBe(ci as string);
    for (const from of dockerfile.getFROMs())
      expect(from.getImage()).toMatch(/^oven\/bun:\$\{BUN_VERSION\}(-slim)?$/);
  });

  test('the build stage installs from the lockfile and builds; the runtime is another, smaller stage', () => {
    const runs = stage('build')
      .filter((each) => each.getKeyword() === 'RUN')
      .map((each) => each.getArgumentsContent());
    expect(runs).toEqual(['bun install --frozen-lockfile', 'bun run build']);
    expect(
      stage('runtime-dependencies')
        .filter((each) => each.getKeyword() === 'RUN')
        .map((each) => each.getArgumentsContent()),
    ).toEqual(['bun install --frozen-lockfile --production']);
  });

  test('the runtime stage runs as a user, exposes the port, checks /healthz and starts the server', () => {
    const runtime = stage('runtime');
    const last = (keyword: string) =>
      runtime.filter((each) => each.getKeyword() === keyword).at(-1);
    expect(last('USER')?.getArgumentsContent()).toBe('bun');
    expect(last('EXPOSE')?.getArgumentsContent()).toBe('3000');
    expect(runtime.find((each) => each.getKeyword() === 'ENV')?.getArgumentsContent()).toContain(
      'PORT=3000',
    );
    expect(last('HEALTHCHECK')?.getArgumentsContent()).toContain('/healthz');
    expect(last('CMD')?.getArgumentsContent()).toBe('["bun", "scripts/start.ts"]');
    // What the server and the CLI load at run time: the build, the start script, the preload
    // every Bun process of the project takes (bunfig.toml), and the sources the CLI runs.
    const copied = runtime
      .filter((each) => each.getKeyword() === 'COPY')
      .flatMap((each) =>
        args(each)
          .slice(0, -1)
          .map((source) => `${fromFlag(each) ?? 'context'}:${source}`),
      );
    for (const needed of [
      'build:/app/dist',
      'runtime-dependencies:/app/node_modules',
      'context:package.json',
      'context:bunfig.toml',
      'context:scripts/start.ts',
      'context:scripts/preload.ts',
      'context:src',
    ])
      expect(copied).toContain(needed);
  });

  test('every file it copies from the build context is there and not left out by .dockerignore', () => {
    for (const copy of dockerfile
      .getInstructions()
      .filter((each) => each.getKeyword() === 'COPY')) {
      if (fromFlag(copy)) continue;
      for (const source of args(copy).slice(0, -1)) {
        if (source === '.') continue;
        expect(existsSync(path.join(ROOT, source))).toBe(true);
        expect(isIgnored(source)).toBe(false);
      }
    }
    // The context leaves out what the build makes itself and what only tests use.
    for (const left of ['node_modules', 'dist', '.git', 'tests', 'src/lib/http/routes.test.ts'])
      expect(isIgnored(left)).toBe(true);
    // …and keeps what the build reads (scripts/start.ts and the preload among them).
    for (const kept of ['src/lib/http/routes.ts', 'public', 'waku.config.ts', 'scripts/preload.ts'])
      expect(isIgnored(kept)).toBe(false);
  });
});

describe('docs/deploy/compose.yaml', () => {
  test('matches the Compose specification and dclint has nothing against it', () => {
    const linter = new DCLinter({
      rules: {
        // The services are in the order they start (database, instances, balancer, cache).
        'services-alphabetical-order': 0,
        // Biome formats YAML too, and writes double quotes.
        'require-quotes-in-ports': [1, { quoteType: 'double' }],
      },
      quiet: false,
      debug: false,
      exclude: [],
    });
    const [result] = linter.lintFiles([COMPOSE], false);
    expect(result?.messages.map((each) => `${each.line}: ${each.message} (${each.rule})`)).toEqual(
      [],
    );
  });

  test('builds the image from the repository and mounts files that are there', () => {
    const compose = Bun.YAML.parse(readFileSync(COMPOSE, 'utf8')) as {
      services: Record<
        string,
        { build?: { context: string; dockerfile: string }; volumes?: string[] }
      >;
    };
    const folio = compose.services.folio1;
    const context = path.resolve(path.dirname(COMPOSE), folio?.build?.context ?? '');
    expect(context).toBe(ROOT);
    expect(existsSync(path.join(context, folio?.build?.dockerfile ?? ''))).toBe(true);
    expect(compose.services.folio2).toEqual(folio as object);
    for (const service of Object.values(compose.services))
      for (const volume of service.volumes ?? [])
        if (volume.startsWith('./'))
          expect(
            statSync(path.resolve(path.dirname(COMPOSE), volume.split(':')[0] as string)).isFile(),
          ).toBe(true);
  });

  /** The shell line a service runs (`sh -c '<it>'`), with Compose's `$$` made `$`. */
  function commandOf(service: string): string {
    const compose = Bun.YAML.parse(readFileSync(COMPOSE, 'utf8')) as {
      services: Record<string, { command: string[] }>;
    };
    const command = compose.services[service]?.command;
    expect(command?.slice(0, 2)).toEqual(['sh', '-c']);
    return (command?.[2] ?? '').replaceAll('$$', '$');
  }

  /** Runs the command's sed (and printf) against the shipped file; the file it writes. */
  function rewrite(
    service: string,
    shipped: string,
    mountedAt: string,
    written: string,
    dir: string,
  ) {
    const line = commandOf(service)
      .replace(/&& exec .*$/, '')
      .replaceAll(mountedAt, shipped)
      .replaceAll(written, path.join(dir, path.basename(written)));
    const run = Bun.spawnSync(['sh', '-c', line], { stderr: 'pipe' });
    expect(run.stderr.toString()).toBe('');
    expect(run.exitCode).toBe(0);
    return readFileSync(path.join(dir, path.basename(written)), 'utf8');
  }

  test.skipIf(!findHaproxy())(
    "HAProxy's configuration, rewritten for the containers, is valid",
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'folio-compose-'));
      try {
        const config = rewrite(
          'haproxy',
          path.join(ROOT, 'docs/deploy/haproxy.cfg'),
          '/etc/folio/haproxy.cfg',
          '/tmp/haproxy.cfg',
          dir,
        );
        expect(config).toContain('    bind :8080\n');
        expect(config).toContain(
          'server folio1 folio1:3000 check resolvers docker init-addr last,libc,none',
        );
        expect(config).toContain('server folio2 folio2:3000 check resolvers docker');
        const check = Bun.spawnSync(
          [findHaproxy() as string, '-c', '-f', path.join(dir, 'haproxy.cfg')],
          {
            stdout: 'pipe',
            stderr: 'pipe',
          },
        );
        expect(`${check.stdout}${check.stderr}`).toContain('Configuration file is valid');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test.skipIf(!findVarnishd())("Varnish's VCL, rewritten for the containers, compiles", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'folio-compose-'));
    try {
      const vcl = rewrite(
        'varnish',
        path.join(ROOT, 'docs/deploy/varnish.vcl'),
        '/etc/folio/varnish.vcl',
        '/tmp/folio.vcl',
        dir,
      );
      expect(vcl).toContain('.host = "haproxy";');
      expect(vcl).toContain('.port = "8080";');
      expect(vcl).toMatch(/"::1";\n\s+"folio1";\n\s+"folio2";/);
      // The container names resolve only on the compose network: here, to this machine.
      writeFileSync(
        path.join(dir, 'here.vcl'),
        vcl.replaceAll('"haproxy"', '"127.0.0.1"').replace(/"folio\d"/g, '"localhost"'),
      );
      const compile = Bun.spawnSync(
        [
          findVarnishd() as string,
          '-C',
          // No jail: as root it would read the VCL as the varnish user, and the folder is ours.
          '-j',
          'none',
          '-n',
          path.join(dir, 'state'),
          '-f',
          path.join(dir, 'here.vcl'),
        ],
        { stdout: 'pipe', stderr: 'pipe' },
      );
      expect(compile.exitCode, compile.stderr.toString().slice(-1_000)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
