/**
 * What a browser downloads and how soon it paints, per route: the compressed script bytes transferred (beside the
 * same scripts' decoded size, the baseline of this run) and the largest-contentful-paint in Chromium, on a cold cache.
 * Targets: sign-in ≤ 200 KB of compressed script, the trading dashboard ≤ 350 KB.
 *
 *   npm run build -w apps/web && npm run web-load -w bench
 */
import { chromium, type Page } from 'playwright-core';
import { startServer } from '../e2e/support/server.ts';

const TARGET_KB: Record<string, number> = { '/': 200, '/dashboard': 350 };

interface Load {
  route: string;
  scripts: number;
  transferredKb: number;
  decodedKb: number;
  lcpMs: number;
}

async function measure(page: Page, url: string, route: string): Promise<Load> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Map<string, { transferred: number; decoded: number; url: string }>();
  // Body bytes as sent: the Content-Length of the (pre-compressed) file, not counting the response headers.
  const sent = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => {
    if (e.type !== 'Script') return;
    scripts.set(e.requestId, { transferred: 0, decoded: 0, url: e.response.url });
    const length = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-length')?.[1];
    if (length) sent.set(e.requestId, Number(length));
  });
  cdp.on('Network.dataReceived', (e) => {
    const s = scripts.get(e.requestId);
    if (s) s.decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const s = scripts.get(e.requestId);
    if (s) s.transferred = sent.get(e.requestId) ?? e.encodedDataLength;
  });
  await page.goto(url + route, { waitUntil: 'networkidle' });
  const lcpMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1].startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(Number.NaN), 3000);
      }),
  );
  await cdp.detach();
  const all = [...scripts.values()];
  // WEB_LOAD_DETAIL=1 lists the biggest scripts of each route, to see what to split next.
  if (process.env.WEB_LOAD_DETAIL)
    for (const s of all.sort((a, b) => b.transferred - a.transferred).slice(0, 12))
      console.log(`  ${route} ${(s.transferred / 1024).toFixed(1).padStart(7)} KB  ${s.url.split('/').pop()}`);
  return {
    route,
    scripts: all.length,
    transferredKb: all.reduce((a, s) => a + s.transferred, 0) / 1024,
    decodedKb: all.reduce((a, s) => a + s.decoded, 0) / 1024,
    lcpMs,
  };
}

async function signIn(page: Page, url: string, email: string): Promise<void> {
  await page.goto(url + '/');
  await page.getByLabel(/email/i).fill(email);
  await page
    .getByLabel(/password/i)
    .first()
    .fill('Demo12345!');
  await page.getByRole('button', { name: /log in|sign in/i }).click();
  await page.waitForURL('**/dashboard');
}

const server = await startServer({ MARKET_HOURS: 'open', DEMO_ACTIVITY: 'false' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const rows: Load[] = [];
  const anonymous = await browser.newPage();
  rows.push(await measure(anonymous, server.url, '/'));
  rows.push(await measure(anonymous, server.url, '/signup'));
  const client = await browser.newPage();
  await signIn(client, server.url, 'client@demo.test');
  for (const route of ['/dashboard', '/deposits', '/statements']) rows.push(await measure(client, server.url, route));
  const admin = await browser.newPage();
  await signIn(admin, server.url, 'admin@demo.test');
  for (const route of ['/admin/users', '/admin/deposits']) rows.push(await measure(admin, server.url, route));

  console.log('\nroute                 scripts  transferred KB  decoded KB (baseline)  ratio  LCP ms  target');
  for (const r of rows) {
    const target = TARGET_KB[r.route];
    const verdict =
      target === undefined ? '' : r.transferredKb <= target ? `≤ ${target} KB met` : `≤ ${target} KB MISSED`;
    console.log(
      `${r.route.padEnd(22)}${String(r.scripts).padStart(7)}${r.transferredKb.toFixed(1).padStart(16)}${r.decodedKb.toFixed(1).padStart(23)}${(r.decodedKb / r.transferredKb).toFixed(1).padStart(7)}${r.lcpMs.toFixed(0).padStart(8)}  ${verdict}`,
    );
  }
  console.log(
    '\nEach route is a cold load (cache cleared). Transferred = script bodies as sent (Chromium asks for gzip over plain HTTP and brotli over HTTPS; both are pre-built); decoded = the same scripts uncompressed.',
  );
} finally {
  await browser.close();
  await server.stop();
}
