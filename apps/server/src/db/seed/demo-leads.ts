import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { leadNotes, leads, salesStatuses, userProfiles, users } from '../schema.ts';
import { random } from './demo-people.ts';

/**
 * The demo CRM: about 120 leads across sales, retentions, archived and clients, some assigned to the demo sales agent
 * and retention agent, some brought by the demo affiliate, a few converted into demo customers (linked to customers
 * the demo activity created). Deterministic, like the demo activity.
 */
const FIRST = [
  'Hannah',
  'Tom',
  'Elena',
  'Raj',
  'Camille',
  'Jonas',
  'Marta',
  'Kenji',
  'Fatima',
  'Pierre',
  'Sara',
  'Lukas',
  'Ana',
  'Samuel',
  'Ingrid',
  'Victor',
];
const LAST = [
  'Brown',
  'Fischer',
  'Martínez',
  'Patel',
  'Bernard',
  'Berg',
  'Nowak',
  'Sato',
  'Haddad',
  'Laurent',
  'Ricci',
  'Weber',
  'Santos',
  'Cohen',
];
const PLACES: Array<[string, string]> = [
  ['United Kingdom', 'Leeds'],
  ['Germany', 'Munich'],
  ['Spain', 'Seville'],
  ['France', 'Nantes'],
  ['Italy', 'Turin'],
  ['Poland', 'Gdańsk'],
  ['Netherlands', 'Rotterdam'],
  ['Canada', 'Vancouver'],
  ['Australia', 'Melbourne'],
  ['Brazil', 'Curitiba'],
];
const FUNNELS = [
  'https://promo.example.com/forex-start',
  'https://promo.example.com/crypto-weekly',
  'https://landing.example.com/gold',
];
const NOTES = [
  'Called, asked to ring back after 6pm.',
  'Interested in crypto, sent the brochure.',
  'No answer twice.',
  'Wants a demo of the platform.',
  'Prefers WhatsApp.',
];
const LEADS = 120;
const DAY = 86_400_000;

export async function seedDemoLeads(db: Db, now = Date.now()): Promise<void> {
  const rnd = random(20261124);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const byEmail = async (email: string) =>
    (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id ?? null;
  const [manager, agent, retention, affiliate, admin] = await Promise.all(
    ['manager@demo.test', 'agent@demo.test', 'retention@demo.test', 'affiliate@demo.test', 'admin@demo.test'].map(
      byEmail,
    ),
  );
  const statuses = (await db.select({ status: salesStatuses.status }).from(salesStatuses)).map((s) => s.status);
  if (statuses.length === 0) return;
  // A few demo customers become converted leads (clients), keeping their own name and contacts.
  const customers = await db
    .select({
      id: users.id,
      fullName: users.fullName,
      email: users.email,
      phone: userProfiles.phone,
      country: userProfiles.country,
      city: userProfiles.city,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(and(eq(users.roleId, 3), isNull(users.deletedAt)))
    .orderBy(users.id)
    .limit(12);
  // The demo client comes first: its lead (a client) is the demo retention agent's, who may then open and log in as it.
  const demoClient = customers.filter((c) => c.email === 'client@demo.test');
  const converted = [...demoClient, ...customers.filter((c) => !c.email.endsWith('@demo.test'))].slice(0, 10);

  const rows: Array<typeof leads.$inferInsert> = [];
  for (let i = 0; i < LEADS; i++) {
    const c = i < converted.length ? converted[i] : null;
    const first = c ? c.fullName.split(' ')[0] : FIRST[i % FIRST.length];
    const last = c ? c.fullName.split(' ').slice(1).join(' ') || null : LAST[(i * 5) % LAST.length];
    const [country, city] = c ? [c.country, c.city] : pick(PLACES);
    const source = i % 5 === 0 ? 'affiliate' : i % 3 === 0 ? 'live' : 'manual';
    const group = c ? 'clients' : i % 9 === 0 ? 'archived' : i % 4 === 0 ? 'retentions' : 'sales';
    const slug = `${first}.${last ?? 'lead'}.${i + 1}`
      .toLowerCase()
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9.]/g, '');
    rows.push({
      firstName: first,
      lastName: last,
      email: c ? c.email : `${slug}@mail.example.com`,
      phone: c ? c.phone : `+${30 + (i % 50)} ${String(700000000 + Math.floor(rnd() * 199999999))}`,
      country,
      city,
      funnelLink: source === 'manual' ? null : pick(FUNNELS),
      reference: source === 'affiliate' ? `AFF-${1000 + i}` : null,
      leadSourceId: source === 'live' ? `web-${2000 + i}` : null,
      leadStatus: i % 3 === 0 ? statuses[0] : pick(statuses),
      group,
      source,
      managerId: i % 2 === 0 ? manager : null,
      // The demo agents' own lists have something to show: every third sales lead and every other retention lead.
      agentId: (group === 'sales' || c) && i % 3 !== 1 ? agent : null,
      retId: (group === 'retentions' || c) && i % 2 === 0 ? retention : null,
      userId: source === 'affiliate' ? affiliate : null,
      linkedUserId: c?.id ?? null,
      createdAt: c ? c.createdAt : new Date(now - Math.floor((1 + rnd() * 45) * DAY)),
    });
  }
  const inserted = await db.insert(leads).values(rows).returning({ id: leads.id });
  const notes = inserted
    .filter((_, i) => i % 4 === 1)
    .map((l, i) => ({
      leadId: l.id,
      userId: i % 2 === 0 ? agent : admin,
      content: NOTES[i % NOTES.length],
      createdAt: new Date(now - (i + 1) * 3_600_000),
    }));
  if (notes.length > 0) await db.insert(leadNotes).values(notes);
}
