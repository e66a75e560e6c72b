#!/usr/bin/env node
// npm test: every suite in order — lint and format, typecheck, domain, server on PGlite, server on PostgreSQL (when reachable),
// web components, then the browser journeys in Chromium. Prints one closing "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(tmp, { recursive: true });
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
const failures = [];

function run(name, cmd, args, opts = {}) {
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts, env: { ...process.env, ...opts.env } });
  if (r.status !== 0) failures.push(name);
  return r.status === 0;
}

function vitest(name, dir, env = {}) {
  if (only.length && !only.some((o) => name.toLowerCase().includes(o))) return;
  const out = path.join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  fs.rmSync(out, { force: true });
  run(name, 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}`], {
    cwd: path.join(root, dir),
    env,
  });
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
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
    return run('install chromium', 'bash', ['-c', `DEBIAN_FRONTEND=noninteractive ${cmd}`]);
  }
  console.error(
    `Chromium is missing. Install it with:\n  sudo ${cmd.replace('&& apt-get', '&& sudo apt-get')}\nthen run npm test again.`,
  );
  failures.push('chromium missing');
  return false;
}

// Formatting and lint (Biome): a misformatted file, an unawaited promise or an import cycle fails the run.
if (!only.length || only.includes('lint')) run('lint and format', 'npx', ['biome', 'ci', '.']);
if (!only.length || only.includes('typecheck'))
  run('typecheck', 'npx', ['tsc', '-p', 'packages/domain']) &&
    run('typecheck server', 'npx', ['tsc', '-p', 'apps/server']) &&
    run('typecheck web', 'npx', ['tsc', '-p', 'apps/web']);
vitest('domain', 'packages/domain');
const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const pgHost = new URL(pgUrl);
const pgReachable = await reachable(pgHost.hostname, Number(pgHost.port || 5432));
const pgWillRun = pgReachable && (!only.length || only.some((o) => 'server (postgresql)'.includes(o)));
// The suites of the HTTP layer alone (route access, fuzzing) run once, on PostgreSQL when that run follows.
vitest('server (PGlite)', 'apps/server', { TEST_DATABASE_URL: '', DB_AGNOSTIC_ON_POSTGRES: pgWillRun ? '1' : '' });
if (pgReachable) vitest('server (PostgreSQL)', 'apps/server', { TEST_DATABASE_URL: pgUrl });
else console.log(`\n=== server (PostgreSQL) === skipped: nothing listens on ${pgHost.host}`);
vitest('web', 'apps/web');
if (!only.length || only.some((o) => 'e2e browser'.includes(o))) {
  if (run('build web app', 'npm', ['run', 'build', '-w', 'apps/web']) && ensureChromium())
    vitest('e2e (Chromium)', 'e2e');
}

console.log('');
if (failures.length) console.log(`Failed steps: ${failures.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failures.length || failed ? 1 : 0);
