import { asc } from 'drizzle-orm';
import type { CategoryName } from '@platform/domain';
import type { DbOrTx } from '../db/client.ts';
import { instruments } from '../db/schema.ts';

export type InstrumentRow = typeof instruments.$inferSelect & { category: CategoryName };

/**
 * The instrument universe held in memory (it changes only when staff edit it): lookups by name and id for the
 * order path, the feeds and the risk engine. `reload()` after any change to the instruments table.
 */
export class InstrumentRegistry {
  private byName = new Map<string, InstrumentRow>();
  private byId = new Map<number, InstrumentRow>();
  private rows: InstrumentRow[] = [];

  async reload(db: DbOrTx): Promise<void> {
    const rows = (await db.select().from(instruments).orderBy(asc(instruments.id))) as InstrumentRow[];
    this.rows = rows;
    this.byName = new Map(rows.map((r) => [r.name, r]));
    this.byId = new Map(rows.map((r) => [r.id, r]));
  }

  list(): readonly InstrumentRow[] {
    return this.rows;
  }

  ofCategory(category: CategoryName): InstrumentRow[] {
    return this.rows.filter((r) => r.category === category);
  }

  byNameOf(name: string): InstrumentRow | undefined {
    return this.byName.get(name);
  }

  byIdOf(id: number): InstrumentRow | undefined {
    return this.byId.get(id);
  }
}
