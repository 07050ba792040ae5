/**
 * The tables a read's answer can write, found from its schema: a sweep keeps the rows written
 * after a read in flight started only in those tables, since only there could its older answer
 * bring a swept row back stale (docs/gc.md, "Requests in flight").
 */

/** Every table: a schema this walk does not know (a custom construct) may write anywhere. */
export const ANY_TABLE: ReadonlySet<string> = new Set(['*']);

/** The tables `schema` writes (an entity's index tables are named by the entity's key). */
export function writableTables(schema: unknown): ReadonlySet<string> {
  const tables = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (node: unknown): boolean => {
    // A plain value (a field's default) writes nothing.
    if (node === null || (typeof node !== 'object' && typeof node !== 'function') || seen.has(node)) return true;
    seen.add(node);
    if (Array.isArray(node)) return node.every(visit);
    const shape = node as { key?: unknown; table?: unknown; schema?: unknown; entity?: unknown; isValues?: unknown };
    if (typeof node === 'function') {
      // An Entity class: its table, then its fields.
      if (typeof shape.key !== 'string') return false;
      tables.add(shape.key);
      return visit(shape.schema);
    }
    const proto = Object.getPrototypeOf(node);
    if (proto === Object.prototype || proto === null) return Object.values(node).every(visit);
    // A Scalar: its cells' table and the entity it binds; a Collection: its lists' table.
    if (typeof shape.table === 'string') {
      tables.add(shape.table);
      return visit(shape.entity);
    }
    if (typeof shape.isValues === 'boolean' && typeof shape.key === 'string') tables.add(shape.key);
    // A page of a list writes into the list.
    if ('collection' in shape && !visit((shape as { collection: unknown }).collection)) return false;
    // Union, Values, All, Invalidate, Lazy, Query: what they hold.
    return 'schema' in shape && visit(shape.schema);
  };
  return visit(schema) ? tables : ANY_TABLE;
}

/** The table an entity's index table (`<entityKey>@<field>`) belongs to; any other table is its own. */
export function ownerTable(table: string): string {
  if (table.startsWith('[') || table.startsWith('{') || table.startsWith('Scalar(')) return table;
  const at = table.lastIndexOf('@');
  return at > 0 ? table.slice(0, at) : table;
}
