import { and, asc, count, desc, eq, ilike, notInArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AdminLanguageDto,
  LanguagesRequest,
  TranslationDto,
  TranslationRequest,
  TranslationsQuery,
} from '@platform/domain';
import type { AppContext } from '../../context.ts';
import { languages, missingTranslations, translations } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';
import { escapeLike, offsetOf, pageMeta } from '../../lib/paging.ts';
import type { StaffActor } from '../../lib/staff-scope.ts';
import { invalidateTranslations } from '../i18n/service.ts';

type Ctx = Pick<AppContext, 'db'>;

export async function listLanguages(ctx: Ctx): Promise<AdminLanguageDto[]> {
  return ctx.db
    .select({ id: languages.id, name: languages.name, code: languages.code })
    .from(languages)
    .orderBy(asc(languages.position), asc(languages.id));
}

/**
 * POST /admin/languages: the list as the screen holds it, in order. New codes are added, names and order updated,
 * codes left out removed from the menu (their texts stay, and come back if the code is added again); English stays.
 */
export async function saveLanguages(
  ctx: Ctx,
  actor: StaffActor,
  list: z.output<typeof LanguagesRequest>,
): Promise<void> {
  const before = await listLanguages(ctx);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(languages).where(
      notInArray(
        languages.code,
        list.map((l) => l.code),
      ),
    );
    for (const [position, l] of list.entries())
      await tx
        .insert(languages)
        .values({ name: l.name, code: l.code, position })
        .onConflictDoUpdate({ target: languages.code, set: { name: l.name, position } });
    await writeAudit(tx, {
      actorId: actor.id,
      targetUserId: null,
      action: 'languages.update',
      subjectType: 'languages',
      before: { list: before.map((l) => `${l.code}:${l.name}`) },
      after: { list: list.map((l) => `${l.code}:${l.name}`) },
      ip: actor.ip,
    });
  });
  invalidateTranslations();
}

const toDto = (r: { id: number; key: string; value: string }, missing = false): TranslationDto => ({
  id: r.id,
  key: r.key,
  value: r.value,
  missing,
});

/** GET /admin/languages/api/{code}: its texts (search over key and value), or the keys clients reported missing. */
export async function listTranslations(ctx: Ctx, code: string, q: z.output<typeof TranslationsQuery>) {
  const term = q.search?.trim();
  if (q.missing === '1') {
    const where = and(
      eq(missingTranslations.code, code),
      sql`not exists (select 1 from translations t where t.code = ${missingTranslations.code} and t.key = ${missingTranslations.key})`,
      term ? ilike(missingTranslations.key, `%${escapeLike(term)}%`) : undefined,
    );
    const [rows, [{ n }]] = await Promise.all([
      ctx.db
        .select({ id: missingTranslations.id, key: missingTranslations.key })
        .from(missingTranslations)
        .where(where)
        .orderBy(desc(missingTranslations.hits), asc(missingTranslations.id))
        .limit(q.limit)
        .offset(offsetOf(q)),
      ctx.db.select({ n: count() }).from(missingTranslations).where(where),
    ]);
    return { data: rows.map((r) => toDto({ ...r, value: '' }, true)), meta: pageMeta(q, n) };
  }
  const where = and(
    eq(translations.code, code),
    term
      ? or(ilike(translations.key, `%${escapeLike(term)}%`), ilike(translations.value, `%${escapeLike(term)}%`))
      : undefined,
  );
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(translations).where(where).orderBy(desc(translations.id)).limit(q.limit).offset(offsetOf(q)),
    ctx.db.select({ n: count() }).from(translations).where(where),
  ]);
  return { data: rows.map((r) => toDto(r)), meta: pageMeta(q, n) };
}

async function assertLanguage(ctx: Ctx, code: string): Promise<void> {
  const [l] = await ctx.db.select({ id: languages.id }).from(languages).where(eq(languages.code, code));
  if (!l) throw new AppError('LANGUAGE_NOT_FOUND');
}

export async function addTranslation(
  ctx: Ctx,
  actor: StaffActor,
  input: z.output<typeof TranslationRequest>,
): Promise<void> {
  await assertLanguage(ctx, input.code);
  try {
    await ctx.db.insert(translations).values({ code: input.code, key: input.key, value: input.value });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError('VALIDATION', 'This key already has a text in this language', {
        key: 'This key already has a text in this language',
      });
    throw err;
  }
  await writeAudit(ctx.db, {
    actorId: actor.id,
    targetUserId: null,
    action: 'translation.add',
    subjectType: 'translation',
    after: input,
    ip: actor.ip,
  });
  invalidateTranslations(input.code);
}

export async function updateTranslation(
  ctx: Ctx,
  actor: StaffActor,
  id: number,
  input: z.output<typeof TranslationRequest>,
): Promise<void> {
  const [before] = await ctx.db.select().from(translations).where(eq(translations.id, id));
  if (!before) throw new AppError('NOT_FOUND', 'Translation not found.');
  await assertLanguage(ctx, input.code);
  try {
    await ctx.db
      .update(translations)
      .set({ code: input.code, key: input.key, value: input.value })
      .where(eq(translations.id, id));
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError('VALIDATION', 'This key already has a text in this language', {
        key: 'This key already has a text in this language',
      });
    throw err;
  }
  await writeAudit(ctx.db, {
    actorId: actor.id,
    targetUserId: null,
    action: 'translation.update',
    subjectType: 'translation',
    subjectId: id,
    before,
    after: input,
    ip: actor.ip,
  });
  for (const code of new Set([before.code, input.code])) invalidateTranslations(code);
}

export async function deleteTranslation(ctx: Ctx, actor: StaffActor, id: number): Promise<void> {
  const [gone] = await ctx.db.delete(translations).where(eq(translations.id, id)).returning();
  if (!gone) throw new AppError('NOT_FOUND', 'Translation not found.');
  await writeAudit(ctx.db, {
    actorId: actor.id,
    targetUserId: null,
    action: 'translation.delete',
    subjectType: 'translation',
    subjectId: id,
    before: gone,
    ip: actor.ip,
  });
  invalidateTranslations(gone.code);
}
