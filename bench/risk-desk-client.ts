/**
 * A desk client of bench/risk-desk.ts, in its own process so its HTTP and JSON work is not counted as the server's:
 * asks what the exposure desk screen asks, at the screen's rates (exposure every second, top clients every 2 s, the
 * realised P/L every 15 s), until told to stop; reports its requests and their mean wall time.
 */
const [url, cookie, clients] = [process.argv[2], process.argv[3], Number(process.argv[4] ?? '1')];
let requests = 0;
let failed = 0;
let wall = 0;
let stopped = false;
process.on('message', (m: { type: string }) => {
  if (m.type === 'stop') stopped = true;
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function get(path: string): Promise<void> {
  const at = performance.now();
  const res = await fetch(`${url}/api${path}`, { headers: { cookie } });
  await res.json();
  wall += performance.now() - at;
  requests++;
  if (!res.ok) failed++;
}

async function desk(offset: number): Promise<void> {
  await sleep(offset);
  let tick = 0;
  while (!stopped) {
    const at = performance.now();
    const work = [get('/admin/risk/exposure?mode=real')];
    if (tick % 2 === 0) work.push(get('/admin/risk/top-clients?by=pl&mode=real&limit=10'));
    if (tick % 15 === 0) work.push(get('/admin/risk/realised?mode=real'));
    await Promise.all(work);
    tick++;
    await sleep(Math.max(0, 1000 - (performance.now() - at)));
  }
}

await Promise.all(Array.from({ length: clients }, (_, i) => desk((i * 1000) / clients)));
process.send?.({ requests, failed, meanMs: requests ? wall / requests : 0 });
process.exit(0);
export {};
