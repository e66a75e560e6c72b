#!/usr/bin/env node
// npm test: every suite — lint and format, typecheck, domain, server on PGlite, server on PostgreSQL (when reachable),
// web components, then the browser journeys in Chromium — two steps at a time (TEST_CONCURRENCY sets how many; 1 runs
// them one by one, about twice as long: 38 minutes against 19 on a 2-core machine). Each step's output
// is kept and printed whole when it ends, under its name; a table of the steps' times and one closing
// "N passed, N failed" line end the run. `npm test -- <part>` runs the steps whose name contains the part
// (server, pglite, postgresql, web, e2e, domain, lint, typecheck).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const only = process.argv.slice(2).map((o) => o.toLowerCase());
const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY) || 2);
const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};
let passed = 0;
let failed = 0;
const failures = [];
/** Each failed test by step, file and name: printed last, so the end of a long log says what failed. */
const failedTests = [];
const times = [];

const wanted = (...names) => !only.length || only.some((o) => names.some((n) => n.toLowerCase().includes(o)));
const clock = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}`;

/** Runs one command with its output kept in .tmp/<name>.log; prints that output whole when it ends. */
function run(name, cmd, args, opts = {}) {
  const log = path.join(tmp, `${name.replace(/\W+/g, '-')}.log`);
  const started = Date.now();
  console.log(`▶ ${name}`);
  return new Promise((resolve) => {
    const out = fs.openSync(log, 'w');
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ['ignore', out, out],
      ...opts,
      env: { ...process.env, ...color, ...opts.env },
    });
    const done = (code) => {
      fs.closeSync(out);
      const ms = Date.now() - started;
      times.push([name, ms, code === 0]);
      const text = fs.readFileSync(log, 'utf8');
      console.log(`\n=== ${name} === ${code === 0 ? 'ok' : 'FAILED'} in ${clock(ms)}\n${text.trimEnd()}\n`);
      if (code !== 0) failures.push(name);
      resolve(code === 0);
    };
    child.on('error', (err) => {
      fs.appendFileSync(log, String(err));
      done(1);
    });
    child.on('exit', (code) => done(code ?? 1));
  });
}

/** A vitest suite; its JSON report adds its tests to the closing counts. */
async function vitest(name, dir, env = {}) {
  const out = path.join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  fs.rmSync(out, { force: true });
  await run(name, 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}`], {
    cwd: path.join(root, dir),
    env,
  });
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    for (const file of r.testResults ?? [])
      for (const t of file.assertionResults ?? [])
        if (t.status === 'failed')
          failedTests.push(`${name}: ${path.relative(root, file.name)} > ${t.fullName ?? t.title}`);
    if (r.numTotalTests === 0) failures.push(`${name} ran no test`);
  } else failures.push(`${name} (no report)`);
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 1500 });
    s.on('connect', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
    s.on('timeout', () => (s.destroy(), resolve(false)));
  });
}

function ensureChromium() {
  const bin = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(bin)) return true;
  const cmd = 'apt-get update && apt-get install -y chromium';
  if (process.getuid?.() === 0) {
    console.log(`Chromium not found: installing Debian's package (${cmd})`);
    const r = spawnSync('bash', ['-c', `DEBIAN_FRONTEND=noninteractive ${cmd}`], { stdio: 'inherit' });
    if (r.status === 0) return true;
  } else
    console.error(
      `Chromium is missing. Install it with:\n  sudo ${cmd.replace('&& apt-get', '&& sudo apt-get')}\nthen run npm test again.`,
    );
  failures.push('chromium missing');
  return false;
}

const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const pgHost = new URL(pgUrl);
const pgReachable = await reachable(pgHost.hostname, Number(pgHost.port || 5432));
const pgWillRun = pgReachable && wanted('server (PostgreSQL)');
if (!pgReachable && wanted('server (PostgreSQL)'))
  console.log(`server (PostgreSQL) skipped: nothing listens on ${pgHost.host}`);
const e2eWillRun = wanted('e2e (Chromium)', 'browser') && ensureChromium();

/**
 * The steps in the order they start, each when one of the places is free: the journeys (after the build) take one
 * place for most of the run while the other runs the short checks, then the server on PGlite; the server on
 * PostgreSQL and the web components follow in whichever place frees first. Figures: docs/benchmarks.md (Test run).
 */
const steps = [];
if (e2eWillRun)
  steps.push(async () => {
    if (await run('build web app', 'npm', ['run', 'build', '-w', 'apps/web'])) await vitest('e2e (Chromium)', 'e2e');
  });
// Formatting and lint (Biome): a misformatted file, an unawaited promise or an import cycle fails the run.
if (!only.length || only.includes('lint')) steps.push(() => run('lint and format', 'npx', ['biome', 'ci', '.']));
if (!only.length || only.includes('typecheck'))
  steps.push(async () => {
    // The benchmarks and the journeys too: they import the server's modules, so a change there can break them.
    for (const p of ['packages/domain', 'apps/server', 'apps/web', 'bench', 'e2e'])
      if (!(await run(`typecheck ${p}`, 'npx', ['tsc', '-p', p]))) break;
  });
if (wanted('domain')) steps.push(() => vitest('domain', 'packages/domain'));
if (wanted('server (PGlite)'))
  // The suites of the HTTP layer alone (route access, fuzzing) run once, on PostgreSQL when that run follows.
  steps.push(() =>
    vitest('server (PGlite)', 'apps/server', { TEST_DATABASE_URL: '', DB_AGNOSTIC_ON_POSTGRES: pgWillRun ? '1' : '' }),
  );
if (pgWillRun) steps.push(() => vitest('server (PostgreSQL)', 'apps/server', { TEST_DATABASE_URL: pgUrl }));
if (wanted('web')) steps.push(() => vitest('web', 'apps/web'));

const started = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(concurrency, steps.length) }, async () => {
    while (next < steps.length) await steps[next++]();
  }),
);

console.log('');
for (const [name, ms, ok] of times) console.log(`${ok ? '  ' : '✖ '}${clock(ms).padStart(6)}  ${name}`);
console.log(`${clock(Date.now() - started).padStart(8)}  in all (${concurrency} at a time)`);
if (failures.length) console.log(`Failed steps: ${failures.join(', ')}`);
for (const t of failedTests) console.log(`✖ ${t}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failures.length || failed ? 1 : 0);
