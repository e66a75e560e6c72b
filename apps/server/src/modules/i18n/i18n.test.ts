import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { languages, missingTranslations, translations } from '../../db/schema.ts';
import { invalidateTranslations } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.ctx.db
    .insert(translations)
    .values([
      { code: 'fr', key: 'Test key', value: 'Clé de test' },
      { code: 'es', key: 'Test key', value: 'Clave de prueba' },
    ])
    .onConflictDoNothing();
});
afterAll(async () => t.close());

const get = (lng: string) => t.app.inject({ method: 'GET', url: `/api/translations/${lng}` });
const report = (lng: string, key: unknown, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: `/api/translations/${lng}`, payload: { key }, remoteAddress });

describe('translations', () => {
  it('serves a flat key/value object per language and 404 for an unknown code', async () => {
    const fr = await get('fr');
    expect(fr.statusCode).toBe(200);
    expect(fr.json()['Test key']).toBe('Clé de test');
    expect((await get('es')).json()['Test key']).toBe('Clave de prueba');
    const unknown = await get('xx');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Language not found.');
  });

  it('caches per language until invalidated', async () => {
    await get('fr');
    await t.ctx.db
      .update(translations)
      .set({ value: 'Clé modifiée' })
      .where(and(eq(translations.code, 'fr'), eq(translations.key, 'Test key')));
    expect((await get('fr')).json()['Test key']).toBe('Clé de test');
    invalidateTranslations('es');
    expect((await get('fr')).json()['Test key']).toBe('Clé de test');
    invalidateTranslations('fr');
    expect((await get('fr')).json()['Test key']).toBe('Clé modifiée');
    await t.ctx.db
      .update(translations)
      .set({ value: 'Encore' })
      .where(and(eq(translations.code, 'fr'), eq(translations.key, 'Test key')));
    invalidateTranslations();
    expect((await get('fr')).json()['Test key']).toBe('Encore');
  });

  it('knows a language added later once its cache is invalidated', async () => {
    expect((await get('de')).statusCode).toBe(404);
    await t.ctx.db.insert(languages).values({ name: 'Deutsch', code: 'de', position: 9 });
    await t.ctx.db.insert(translations).values({ code: 'de', key: 'Test key', value: 'Testschlüssel' });
    invalidateTranslations('de');
    expect((await get('de')).json()).toEqual({ 'Test key': 'Testschlüssel' });
  });

  it('records missing keys with a hit count, ignoring known keys and unknown languages', async () => {
    expect((await report('fr', 'Brand new text')).statusCode).toBe(204);
    const results = await Promise.all([1, 2, 3].map(() => report('fr', 'Brand new text')));
    expect(results.map((r) => r.statusCode)).toEqual([204, 204, 204]);
    expect((await report('fr', 'Test key')).statusCode).toBe(204);
    expect((await report('xx', 'Brand new text')).statusCode).toBe(404);
    expect((await report('fr', '')).statusCode).toBe(400);
    const rows = await t.ctx.db.select().from(missingTranslations);
    expect(rows.map((r) => [r.code, r.key, r.hits])).toEqual([['fr', 'Brand new text', 4]]);
  });

  it('rate-limits missing-key reports per address (60 a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await report('es', `k${i}`, '10.20.30.40')).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 204)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await report('es', 'k-other', '10.20.30.41')).statusCode).toBe(204);
  });
});
