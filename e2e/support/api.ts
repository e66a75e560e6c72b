/** Minimal API client for journeys that prepare data or check results over HTTP, with a cookie jar. */
export class ApiSession {
  private cookie = '';
  constructor(private readonly baseUrl: string) {}

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: T }> {
    const res = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
    if (set) this.cookie = set.split(';')[0];
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as T };
  }

  /** A multipart form (text fields and files), as the browser's upload forms send it. */
  async upload<T = Record<string, unknown>>(
    method: string,
    path: string,
    fields: Record<string, string>,
    files: Record<string, { data: Buffer; name: string; type: string }> = {},
  ): Promise<{ status: number; json: T }> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const [k, f] of Object.entries(files))
      form.append(k, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
    const res = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: this.cookie ? { cookie: this.cookie } : {},
      body: form,
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as T };
  }

  async signIn(email: string, password = 'Demo12345!'): Promise<void> {
    const r = await this.call('POST', '/auth/login', { email, password });
    if (r.status !== 200) throw new Error(`sign-in of ${email}: ${r.status} ${JSON.stringify(r.json)}`);
  }
}

/**
 * The link in the newest mail to an address, read as an admin the way people without SMTP do: the list finds
 * the mail (it never carries links), the single read shows the link while it works (and audits that read).
 */
export async function lastMailLink(baseUrl: string, to: string, route: string): Promise<string> {
  const admin = new ApiSession(baseUrl);
  await admin.signIn('admin@demo.test');
  const pattern = new RegExp(`https?://[^\\s]+${route}\\?token=[\\w-]+`);
  // Reset mail is written just after the answer to the request (so its timing says nothing about the account):
  // look again for up to a few seconds.
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const list = await admin.call<{ data: { id: number; to: string }[] }>(
      'GET',
      `/admin/mail/api?search=${encodeURIComponent(to)}`,
    );
    const newest = list.json.data.find((m) => m.to === to);
    if (!newest) continue;
    const mail = await admin.call<{ text: string }>('GET', `/admin/mail/${newest.id}`);
    const m = mail.json.text?.match(pattern);
    if (m) return m[0];
  }
  throw new Error(`no ${route} link mailed to ${to}`);
}
