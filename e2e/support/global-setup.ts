import fs from 'node:fs';
import { startServer } from './server.ts';

/**
 * Once per run: a first start of the product on an empty data folder (migrations, demo data), stopped cleanly and kept
 * as the template every journey's server copies. Journeys then start in seconds instead of seeding again.
 */
export default async function setup(): Promise<() => void> {
  const server = await startServer({}, { keepData: true, template: null, startTimeoutMs: 180_000 });
  await server.stop();
  process.env.E2E_TEMPLATE_DIR = server.dataDir;
  return () => fs.rmSync(server.dataDir, { recursive: true, force: true });
}
