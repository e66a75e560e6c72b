import { buildTemplate } from './template-db.ts';

/** Once per run: the migrated, seeded database every test app copies (template-db.ts). */
export default async function setup(): Promise<() => Promise<void>> {
  return buildTemplate();
}
