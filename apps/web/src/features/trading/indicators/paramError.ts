import type { TFunction } from 'i18next';

/** The parts of a schema issue that say what is wrong with a parameter (zod's issue, as far as it is read here). */
export interface ParamIssue {
  code: string;
  message: string;
  expected?: unknown;
  minimum?: unknown;
  maximum?: unknown;
}

/**
 * An indicator parameter's error in the trader's language: the schema's English sentences carry the label and the
 * bound inside them, so the sentence is built again here from the issue's kind and bound, with the label translated
 * (a rule of its own, like MACD's fast period below the slow one, is one sentence and is translated whole).
 */
export function paramError(issue: ParamIssue, label: string, t: TFunction): string {
  const name = t(label);
  if (issue.code === 'too_small') return t('{{label}} must be at least {{min}}', { label: name, min: issue.minimum });
  if (issue.code === 'too_big') return t('{{label}} must be at most {{max}}', { label: name, max: issue.maximum });
  if (issue.code === 'invalid_type')
    return issue.expected === 'int'
      ? t('{{label}} must be a whole number', { label: name })
      : t('{{label}} must be a number', { label: name });
  return t(issue.message);
}
