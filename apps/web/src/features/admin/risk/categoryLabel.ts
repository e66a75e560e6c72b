/** The English label of a category as the instrument screens show it ('forex' → 'Forex'), translated where shown. */
export const categoryLabel = (c: string): string => (c ? c[0].toUpperCase() + c.slice(1) : c);
