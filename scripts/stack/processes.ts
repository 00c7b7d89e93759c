// The processes `bun run stack` starts (Folio instances, HAProxy, Varnish), each under a small
// shell tethered to this process: whoever stops the stack signals each by its pid, and if this
// process dies without stopping them (SIGKILL, a crashed test run), the tether's stdin reaches
// EOF and the shell SIGTERMs its child, so nothing it started outlives it on a shared machine.
import { existsSync } from 'node:fs';

export type Child = {
  /** A short name for messages and line prefixes: `folio1`, `haproxy`, `varnish`. */
  name: string;
  /** The child's own pid (not the tether's). */
  pid: number;
  /** The last 64 KB of what it printed, both streams. */
  output: () => string;
  /** Its exit code once it has exited (the tether exits with it). */
  exited: Promise<number>;
  /** Whether it has exited. */
  hasExited: () => boolean;
  /** Sends `signal` (SIGTERM by default), waits up to `graceMs`, then SIGKILLs; its exit code. */
  stop: (signal?: NodeJS.Signals, graceMs?: number) => Promise<number>;
};

/**
 * The tether: starts the command in the background (a background job of a non-interactive
 * shell ignores SIGINT, so a Ctrl-C on the terminal reaches the stack's own handler only, which
 * stops everything in order), names its pid on the first line, and waits for it. It ignores
 * SIGTERM and SIGINT itself; at EOF on its stdin it SIGTERMs the child.
 */
const TETHER = [
  'exec 3<&0',
  '"$@" </dev/null & child=$!',
  'echo "stack-tether: pid $child"',
  "trap '' TERM INT",
  '{ cat <&3 >/dev/null; kill -TERM "$child"; } </dev/null >/dev/null 2>&1 &',
  'wait "$child"',
].join('\n');
const TETHER_LINE = /stack-tether: pid (\d+)\n/;
const KEEP_OUTPUT = 64 * 1024;

/** A program from PATH, or from the sbin folders Debian installs daemons in. */
export function findProgram(name: string): string | null {
  return (
    Bun.which(name) ??
    Bun.which(name, { PATH: '/usr/local/sbin:/usr/sbin:/sbin' }) ??
    (existsSync(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : null)
  );
}

export async function spawnTethered(
  name: string,
  command: readonly string[],
  {
    env = process.env,
    cwd,
    onLine,
  }: {
    env?: Record<string, string | undefined>;
    cwd?: string;
    /** Each line it prints, as it prints it (the CLI shows them prefixed with the name). */
    onLine?: (line: string) => void;
  } = {},
): Promise<Child> {
  const tether = Bun.spawn(['sh', '-c', TETHER, 'stack-tether', ...command], {
    cwd,
    env,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  let pid: number | null = null;
  let named: (pid: number | null) => void = () => undefined;
  const pidKnown = new Promise<number | null>((resolve) => {
    named = resolve;
  });
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let partial = '';
    for await (const chunk of stream) {
      let text = decoder.decode(chunk, { stream: true });
      if (pid === null) {
        const line = TETHER_LINE.exec(text);
        if (line) {
          pid = Number(line[1]);
          named(pid);
          text = text.replace(line[0], '');
        }
      }
      output = (output + text).slice(-KEEP_OUTPUT);
      if (onLine) {
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) onLine(line);
      }
    }
    if (onLine && partial) onLine(partial);
  };
  const drained = Promise.all([collect(tether.stdout), collect(tether.stderr)]);
  let done = false;
  const exited = tether.exited.then(async (code) => {
    done = true;
    named(null);
    tether.stdin.end();
    await drained;
    return code;
  });
  const childPid = await pidKnown;
  if (childPid === null) throw new Error(`${name} did not start:\n${output}`);
  const signal = (name: NodeJS.Signals) => {
    if (done) return;
    try {
      process.kill(childPid, name);
    } catch {
      // It exited meanwhile: the tether follows it.
    }
  };
  let stopping: Promise<number> | null = null;
  return {
    name,
    pid: childPid,
    output: () => output,
    exited,
    hasExited: () => done,
    stop: (name = 'SIGTERM', graceMs = 15_000) => {
      stopping ??= (async () => {
        signal(name);
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), graceMs);
        });
        if ((await Promise.race([exited, late])) === 'late') signal('SIGKILL');
        clearTimeout(timer);
        return exited;
      })();
      return stopping;
    },
  };
}

/**
 * Polls `probe` until it returns something other than undefined, or fails after `timeoutMs`
 * with a message naming `what` (a function is asked then, so it can tell what was seen).
 */
export async function poll<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  { timeoutMs, what }: { timeoutMs: number; what: string | (() => string) },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await Bun.sleep(50);
  }
}

/** The status `url` answers with, or null while nothing answers there. */
export async function statusOf(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return null;
  }
}

/** Whether nothing listens on 127.0.0.1:`port` now. */
export function portIsFree(port: number): boolean {
  try {
    Bun.listen({ hostname: '127.0.0.1', port, socket: { data() {} } }).stop(true);
    return true;
  } catch {
    return false;
  }
}

/** A loopback port nobody listens on now (the OS picks it; it is free again at once). */
export function pickFreePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}
