import fs from 'node:fs';
import path from 'node:path';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { IndicatorConfig } from '@platform/domain';
import { paramError } from './paramError.ts';

const locale = (lng: string) =>
  JSON.parse(
    fs.readFileSync(path.resolve(__dirname, `../../../../../server/src/db/seed/locales/chart.${lng}.json`), 'utf8'),
  ) as Record<string, string>;

async function translator(lng: string) {
  const i18n = createInstance();
  await i18n.init({ lng, resources: { [lng]: { translation: locale(lng) } }, interpolation: { escapeValue: false } });
  return i18n.t;
}

const issueOf = (config: unknown) => {
  const parsed = IndicatorConfig.safeParse(config);
  if (parsed.success) throw new Error('expected an error');
  return parsed.error.issues[0];
};

describe('indicator parameter errors in the trader’s language', () => {
  it('says each kind of error in English, Spanish and French, with the translated label and the bound', async () => {
    const cases: Array<[unknown, string, Record<string, string>]> = [
      [
        { type: 'sma', period: 0 },
        'Period',
        { en: 'Period must be at least 1', es: 'Periodo debe ser al menos 1', fr: 'Période doit être au moins 1' },
      ],
      [
        { type: 'macd', fast: 12, slow: 900, signal: 9 },
        'Slow period',
        {
          en: 'Slow period must be at most 500',
          es: 'Periodo lento debe ser como máximo 500',
          fr: 'Période lente doit être au plus 500',
        },
      ],
      [
        { type: 'rsi', period: 2.5 },
        'Period',
        {
          en: 'Period must be a whole number',
          es: 'Periodo debe ser un número entero',
          fr: 'Période doit être un nombre entier',
        },
      ],
      [
        { type: 'bb', period: 20, stdDev: '' },
        'Deviations',
        { en: 'Deviations must be a number', es: expect.any(String) as never, fr: expect.any(String) as never },
      ],
      [
        { type: 'macd', fast: 30, slow: 26, signal: 9 },
        'Fast period',
        {
          en: 'The fast period must be shorter than the slow one',
          es: 'El periodo rápido debe ser más corto que el lento',
          fr: 'La période rapide doit être plus courte que la lente',
        },
      ],
    ];
    for (const lng of ['en', 'es', 'fr']) {
      const t = await translator(lng);
      for (const [config, label, said] of cases) expect(paramError(issueOf(config), label, t)).toEqual(said[lng]);
    }
    // The English schema's own sentence is never shown in Spanish or French.
    const es = await translator('es');
    expect(paramError(issueOf({ type: 'bb', period: 20, stdDev: 0 }), 'Deviations', es)).toMatch(
      /^\S+ debe ser al menos 0.1$/,
    );
  });
});
