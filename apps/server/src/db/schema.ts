// The one schema drizzle reads: the core tables, money movements, the CRM and trading beyond market orders, each in
// a file of its own that imports only the core (so no two schema files import each other).
export * from './schema-core.ts';
export * from './schema-money.ts';
export * from './schema-crm.ts';
export * from './schema-trading.ts';
