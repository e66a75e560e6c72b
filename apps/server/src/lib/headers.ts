import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** Google reCAPTCHA's script and challenge frames, allowed only while the captcha switch is on. */
const RECAPTCHA_SCRIPT = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAME = ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'];

/**
 * Security headers on every response (helmet): a Content-Security-Policy that fits the app — its own scripts only,
 * API and websocket on the same origin, the captcha's hosts when the captcha is switched on — no framing by any
 * site, no MIME sniffing, no Referer (reset and verification links carry tokens), HSTS when served over HTTPS.
 */
/** Where deposit forms may be posted: Perfect Money's SCI, or the address configured for it instead. */
function paymentFormOrigins(urls: Record<string, string>): string[] {
  const configured = urls.perfectmoney;
  if (!configured) return ['https://perfectmoney.com'];
  try {
    return [new URL(configured).origin];
  } catch {
    return [];
  }
}

/** What the headers depend on: two settings of the deployment and the site's captcha switch (read by the caller). */
export interface SecurityHeaderOptions {
  cookieSecure: boolean;
  paymentApiUrls: Record<string, string>;
  captchaEnabled: () => Promise<boolean>;
}

export async function registerSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions): Promise<void> {
  const captchaOn = await captchaSwitch(opts.captchaEnabled);
  const directives = (captcha: boolean): Record<string, string[]> => ({
    'default-src': ["'self'"],
    'script-src': captcha ? ["'self'", ...RECAPTCHA_SCRIPT] : ["'self'"],
    // Mantine sets CSS variables in style attributes and a style element; no script runs from them.
    'style-src': ["'self'", "'unsafe-inline'"],
    // Branding images (logo, background) may live on the broker's own CDN.
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    // 'self' covers the same-origin Socket.IO websocket.
    'connect-src': ["'self'"],
    'frame-src': captcha ? RECAPTCHA_FRAME : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    // A deposit by Perfect Money posts a hidden form to the provider (its SCI).
    'form-action': ["'self'", ...paymentFormOrigins(opts.paymentApiUrls)],
    'frame-ancestors': ["'none'"],
    ...(opts.cookieSecure ? { 'upgrade-insecure-requests': [] } : {}),
  });
  // The policy has two possible texts (captcha on or off), written once here rather than rebuilt for every answer,
  // which cost more than the rest of an order's HTTP handling's headers together.
  const policy = (captcha: boolean) =>
    Object.entries(directives(captcha))
      .map(([name, values]) => [name, ...values].join(' '))
      .join(';');
  const policies = { on: policy(true), off: policy(false) };
  // The switch is re-read at most every few seconds, before the policy is set.
  app.addHook('onRequest', async (_req, reply) => {
    await captchaOn.refresh();
    reply.header('content-security-policy', captchaOn.value ? policies.on : policies.off);
  });
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: opts.cookieSecure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Cross-origin isolation headers would block the captcha's frames and branding images from other hosts.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}

const CAPTCHA_RECHECK_MS = 5_000;

/** The recaptcha switch (settings `recaptcha`.value3), read at start and again when older than a few seconds. */
async function captchaSwitch(captchaEnabled: () => Promise<boolean>) {
  let checkedAt = 0;
  const state = {
    value: false,
    async refresh(): Promise<void> {
      if (Date.now() - checkedAt < CAPTCHA_RECHECK_MS) return;
      checkedAt = Date.now();
      state.value = await captchaEnabled();
    },
  };
  await state.refresh();
  return state;
}

/**
 * Headers every answer carries, also those written outside Fastify: Socket.IO's polling transport and Node's own
 * answers to malformed requests. Fastify's answers replace them with helmet's fuller set.
 */
export const BASELINE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * Sets the baseline headers on every response of the HTTP server before any handler runs. Called again once
 * Socket.IO has attached (it wraps the listeners it found), so its answers get them too; setting them twice is harmless.
 */
export function addBaselineHeaders(server: http.Server): void {
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    for (const [name, value] of Object.entries(BASELINE_HEADERS)) res.setHeader(name, value);
  });
}

/**
 * Node's answer to a request it cannot parse (bad header characters, headers too large, timeouts), which never
 * reaches a route: the same JSON shape as every other error, with the baseline headers.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431
      ? 'Request headers are too large.'
      : status === 408
        ? 'The request took too long.'
        : 'Malformed request.';
  const body = JSON.stringify({ message });
  const headers = Object.entries({
    ...BASELINE_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n${body}`);
  socket.destroy(err);
}
