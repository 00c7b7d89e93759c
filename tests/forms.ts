// Drives Folio's forms the way a browser without JavaScript does: read the forms the server
// rendered (hidden action fields included), fill some fields, post them as multipart to the
// page's own address. Request-level tests use this instead of a browser.

export type HtmlForm = {
  /** Named controls in document order, with the values the server rendered. */
  fields: [string, string][];
  /** Submit buttons: their visible text, and the name/value they add when pressed. */
  buttons: { text: string; name?: string; value?: string }[];
};

/** Every form in `html`, with its controls. */
export async function formsIn(html: string): Promise<HtmlForm[]> {
  const forms: HtmlForm[] = [];
  let current: HtmlForm | null = null;
  let textarea: { name: string; text: string } | null = null;
  let select: string | null = null;
  let button: HtmlForm['buttons'][number] | null = null;
  await new HTMLRewriter()
    .on('form', {
      element(element) {
        current = { fields: [], buttons: [] };
        forms.push(current);
        element.onEndTag(() => {
          current = null;
        });
      },
    })
    .on('form input', {
      element(element) {
        const name = element.getAttribute('name');
        const type = element.getAttribute('type') ?? 'text';
        if (!current || !name || type === 'submit') return;
        if ((type === 'checkbox' || type === 'radio') && !element.hasAttribute('checked')) return;
        current.fields.push([name, decodeEntities(element.getAttribute('value') ?? '')]);
      },
    })
    .on('form textarea', {
      element(element) {
        const name = element.getAttribute('name');
        if (!current || !name) return;
        textarea = { name, text: '' };
        const form = current;
        element.onEndTag(() => {
          if (textarea) form.fields.push([textarea.name, decodeEntities(textarea.text)]);
          textarea = null;
        });
      },
      text(chunk) {
        if (textarea) textarea.text += chunk.text;
      },
    })
    .on('form select', {
      element(element) {
        select = element.getAttribute('name');
      },
    })
    .on('form select option', {
      element(element) {
        if (current && select && element.hasAttribute('selected'))
          current.fields.push([select, decodeEntities(element.getAttribute('value') ?? '')]);
      },
    })
    .on('form button', {
      element(element) {
        if (!current) return;
        button = {
          text: '',
          name: element.getAttribute('name') ?? undefined,
          value: element.getAttribute('value') ?? undefined,
        };
        current.buttons.push(button);
        element.onEndTag(() => {
          button = null;
        });
      },
      text(chunk) {
        if (button) button.text += chunk.text;
      },
    })
    .transform(new Response(html))
    .text();
  return forms;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The form whose submit button reads `buttonText` (exactly, trimmed). */
export async function formWithButton(html: string, buttonText: string): Promise<HtmlForm> {
  const form = (await formsIn(html)).find((candidate) =>
    candidate.buttons.some((button) => button.text.trim() === buttonText),
  );
  if (!form) throw new Error(`no form with a "${buttonText}" button in the page`);
  return form;
}

/** Posts `form` to `pageUrl` as a browser would, with some fields replaced. */
export function submitForm(
  pageUrl: string,
  form: HtmlForm,
  {
    set = {},
    cookie,
    button,
    headers = {},
  }: {
    /** Field values to send instead; a Blob is sent as a file (a file input's choice). */
    set?: Record<string, string | Blob>;
    cookie?: string;
    button?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const body = new FormData();
  const replaced = new Set<string>();
  const append = (name: string, value: string | Blob) =>
    typeof value === 'string'
      ? body.append(name, value)
      : body.append(name, value, value instanceof File ? value.name : 'upload.bin');
  for (const [name, value] of form.fields) {
    if (name in set) {
      if (!replaced.has(name)) append(name, set[name] as string | Blob);
      replaced.add(name);
    } else body.append(name, value);
  }
  for (const [name, value] of Object.entries(set)) if (!replaced.has(name)) append(name, value);
  const pressed = form.buttons.find((candidate) => candidate.text.trim() === button);
  if (pressed?.name) body.append(pressed.name, pressed.value ?? '');
  return fetch(pageUrl, {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: {
      origin: new URL(pageUrl).origin,
      accept: 'text/html',
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
  });
}

/** The `name=value` pairs a response sets, ready to send back as a Cookie header. */
export function cookiesFrom(response: Response, previous = ''): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(/;\s*/).filter(Boolean)) {
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    if (value === '' || /max-age=0/i.test(header)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Signs in through the no-JavaScript form; returns the cookies of the new session. */
export async function signInWithForm(
  baseUrl: string,
  email: string,
  password: string,
  { cookie = '', headers = {} }: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<{ response: Response; cookie: string; html: string }> {
  const page = await fetch(`${baseUrl}/preview`, { headers: cookie ? { cookie } : {} });
  const form = await formWithButton(await page.text(), 'Sign in');
  const response = await submitForm(`${baseUrl}/preview`, form, {
    set: { email, password },
    cookie,
    headers,
  });
  return { response, cookie: cookiesFrom(response, cookie), html: await response.text() };
}
