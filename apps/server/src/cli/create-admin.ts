// npm run create-admin -- --email boss@broker.com --name "Jane Boss" [--password ...]
// Creates the first administrator of a database (embedded or DATABASE_URL). Without --password, one is
// generated and printed once; ADMIN_PASSWORD in the environment works too, so it never lands in shell history.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { emailField, passwordField } from '@platform/domain';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { seedBase } from '../db/seed/index.ts';
import { userProfiles, users } from '../db/schema.ts';
import { hashPassword } from '../lib/crypto.ts';
import { findUserByEmail } from '../modules/auth/service.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } },
});
const email = emailField.safeParse(values.email ?? '');
if (!email.success || !values.name) {
  console.error('Usage: npm run create-admin -- --email admin@broker.com --name "Full Name" [--password secret]');
  process.exit(2);
}
const password = values.password ?? process.env.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
const pw = passwordField.safeParse(password);
if (!pw.success) {
  console.error(pw.error.issues[0]?.message);
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
try {
  await seedBase(database.db);
  if (await findUserByEmail(database.db, email.data)) {
    console.error(`A user with the email ${email.data} already exists.`);
    process.exitCode = 1;
  } else {
    const passwordHash = await hashPassword(password);
    await database.db.transaction(async (tx) => {
      const [u] = await tx
        .insert(users)
        .values({
          fullName: values.name!,
          email: email.data,
          passwordHash,
          roleId: 1,
          isEmailVerified: true,
          isActive: true,
        })
        .returning({ id: users.id });
      await tx.insert(userProfiles).values({ userId: u.id });
    });
    console.log(`Administrator ${email.data} created.`);
    if (!values.password && !process.env.ADMIN_PASSWORD) console.log(`Password (shown once): ${password}`);
  }
} finally {
  await database.close();
}
