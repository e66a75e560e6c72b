import { z } from 'zod';
import { requiredString } from './common.ts';

/** `{lng}` of /translations/{lng}; any short string, unknown codes answer 404 rather than 400. */
export const LanguageCodeParam = z.object({ lng: requiredString('Language is required', 64) });

/** GET /translations/{lng}: a flat key -> text map, the shape i18next loads. */
export const TranslationsResponse = z.record(z.string(), z.string());
export type TranslationsResponse = z.infer<typeof TranslationsResponse>;
