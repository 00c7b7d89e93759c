// The benchmark's yardstick, in its own process: Bun.serve sending fixed bytes from memory.
const [file, port] = Bun.argv.slice(2);
const bytes = new Uint8Array(await Bun.file(file as string).arrayBuffer());
Bun.serve({
  hostname: '127.0.0.1',
  port: Number(port),
  fetch: () => new Response(bytes, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
});

export {};
