// npm run verify-records [-- --checkpoint file.json]
// Walks the hash chains of the ledger and the audit trail (embedded database or DATABASE_URL; stop the product first
// when it runs on the embedded one) and prints the first row whose link or hash does not hold. With --checkpoint, also
// checks that every chain head of an exported checkpoint (GET /api/admin/records/checkpoint) is still in its chain.
// Exits 1 when anything is broken.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { RecordsCheckpoint } from '@platform/domain';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { verifyCheckpoint, verifyRecords } from '../modules/records/verify.ts';

const { values } = parseArgs({ options: { checkpoint: { type: 'string' } } });
const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
try {
  const report = await verifyRecords(database.db);
  console.log(JSON.stringify(report, null, 2));
  let ok = report.ok;
  if (values.checkpoint) {
    const cp = RecordsCheckpoint.parse(JSON.parse(fs.readFileSync(values.checkpoint, 'utf8')));
    const result = await verifyCheckpoint(database.db, config.RECORDS_SIGNING_KEY, cp);
    console.log(JSON.stringify({ checkpoint: result }, null, 2));
    ok &&= result.ok;
  }
  if (!ok) process.exitCode = 1;
} finally {
  await database.close();
}
