// A JavaScript action call as Waku's router sends it (the action's id read from the build, the
// arguments as its text body): for actions only the page's JavaScript calls (passkeys, the
// second step), posted to a running server. tests/integration/action-calls.test.ts has the why.
export async function callAction(
  base: string,
  action: string,
  body: string,
  cookie = '',
): Promise<Response> {
  const ids: string[] = [];
  for await (const path of new Bun.Glob('dist/public/assets/*.js').scan('.'))
    for (const [, id] of (await Bun.file(path).text()).matchAll(
      new RegExp(`([0-9a-f]{12})#${action}\\b`, 'g'),
    ))
      if (id) ids.push(id);
  if (!ids[0]) throw new Error(`the build names no ${action} (bun run build first)`);
  return fetch(`${base}/preview`, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: {
      origin: base,
      'content-type': 'text/plain;charset=UTF-8',
      'x-folio-action': `/RSC/F/${ids[0]}/${action}.txt`,
      'x-waku-action-location': '/preview',
      ...(cookie ? { cookie } : {}),
    },
  });
}
