// The rules the layout makes visible (README, "Architecture"; docs/decisions/0025), checked on
// the source's import statements rather than trusted to review:
// - UI (src/components, src/pages) never imports the data layer (src/lib/data);
// - the domain (content, media, markdown, data, share-links) never imports the HTTP edge or Waku;
// - only src/lib/waku/ reaches into Waku's, Vite's or React's internals;
// - nothing the browser loads imports a server-only module.
// Type-only imports count for the first two (a type names what a module depends on), not for
// the last (the browser never loads an erased import).
import { describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dir, '../..');
const src = path.join(root, 'src');

type Import = { target: string; typeOnly: boolean };
type Module = { file: string; text: string; imports: Import[]; bare: string[] };

const SPECIFIER =
  /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?(['"])([^'"]+)\3|import\(\s*(['"])([^'"]+)\5\s*\)/gm;
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function resolve(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function readModules(): Map<string, Module> {
  const modules = new Map<string, Module>();
  for (const entry of fs.readdirSync(src, { recursive: true }) as string[]) {
    if (!/\.tsx?$/.test(entry) || /\.test\.tsx?$/.test(entry)) continue;
    const file = path.join(src, entry);
    const text = fs.readFileSync(file, 'utf8');
    const imports: Import[] = [];
    const bare: string[] = [];
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[4] ?? match[6];
      if (specifier === undefined) continue;
      const typeOnly = match[2] !== undefined;
      if (!specifier.startsWith('.')) {
        bare.push(specifier);
        continue;
      }
      const target = resolve(file, specifier);
      if (target) imports.push({ target, typeOnly });
    }
    modules.set(file, { file, text, imports, bare });
  }
  return modules;
}

const modules = readModules();
const rel = (file: string) => path.relative(root, file);
const under = (file: string, ...folders: string[]) =>
  folders.some((folder) => file.startsWith(path.join(src, folder) + path.sep));

function violations(from: (file: string) => boolean, to: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const module of modules.values()) {
    if (!from(module.file)) continue;
    for (const { target } of module.imports)
      if (to(target)) found.push(`${rel(module.file)} imports ${rel(target)}`);
  }
  return found;
}

describe('the layout rules', () => {
  test('the checker reads the source: it finds modules and their imports', () => {
    expect(modules.size).toBeGreaterThan(50);
    const frontDoor = [...modules.values()].find((m) => m.file.endsWith('http/front-door.ts'));
    expect(frontDoor?.imports.length).toBeGreaterThan(3);
  });

  test('UI never imports the data layer', () => {
    expect(
      violations(
        (file) => under(file, 'components', 'pages'),
        (target) => under(target, 'lib/data'),
      ),
    ).toEqual([]);
  });

  test('the domain never imports the HTTP edge or Waku', () => {
    expect(
      violations(
        (file) =>
          under(
            file,
            'lib/content',
            'lib/media',
            'lib/markdown',
            'lib/data',
            'lib/share-links',
            'lib/api-keys',
            'lib/coedit',
          ),
        (target) => under(target, 'lib/http', 'lib/waku'),
      ),
    ).toEqual([]);
  });

  test("only src/lib/waku/ reaches into Waku's, Vite's or React's internals", () => {
    const internal = (specifier: string) =>
      specifier.startsWith('waku/dist') ||
      specifier.startsWith('@vitejs/plugin-rsc') ||
      specifier.startsWith('react-server-dom-webpack') ||
      specifier.startsWith('virtual:');
    const found: string[] = [];
    for (const module of modules.values()) {
      if (under(module.file, 'lib/waku')) continue;
      for (const specifier of module.bare.filter(internal))
        found.push(`${rel(module.file)} imports ${specifier}`);
      if (/__WAKU_/.test(module.text)) found.push(`${rel(module.file)} names a __WAKU_ global`);
    }
    expect(found).toEqual([]);
  });

  test('nothing the browser loads imports a server-only module', () => {
    const serverOnly = (module: Module) => /^import 'server-only';/m.test(module.text);
    const clientEntry = (module: Module) =>
      /^['"]use client['"];/m.test(module.text) || module.file.endsWith('waku.client.tsx');
    // A 'use server' module reaches the browser as references to its actions, not as code.
    const serverActions = (module: Module) => /^['"]use server['"];/m.test(module.text);
    const found: string[] = [];
    const seen = new Set<string>();
    const queue = [...modules.values()].filter(clientEntry).map((m) => [m.file, m.file]);
    while (queue.length > 0) {
      const [file, from] = queue.pop() as [string, string];
      if (seen.has(file)) continue;
      seen.add(file);
      const module = modules.get(file);
      if (!module || serverActions(module)) continue;
      if (serverOnly(module)) found.push(`${rel(from)} → ${rel(file)}`);
      for (const { target, typeOnly } of module.imports) if (!typeOnly) queue.push([target, file]);
    }
    expect(seen.size).toBeGreaterThan(5);
    expect(found).toEqual([]);
  });
});
