/** The row keys of Scalar cells (docs/Scalar.md): `<entityKey>|<entityPk>|<lens>`. */

/** A cell's row key (the lens holds no `|`, so it is the last part). */
export function cellKey(entityKey: string, pk: string, lens: string): string {
  return `${entityKey}|${pk}|${lens}`;
}

/**
 * The key of the cell a read asked for last: the Scalar fields of one row read one cell one after
 * another, and a key string made anew is hashed anew when the table is looked up with it.
 */
export class LastCellKey {
  private pk = '';
  /** (An entity key is never empty, so the first call always makes a key.) */
  private entity = '';
  private lens = '';
  private key = '';

  of(entityKey: string, pk: string, lens: string): string {
    if (this.pk !== pk || this.entity !== entityKey || this.lens !== lens) {
      this.pk = pk;
      this.entity = entityKey;
      this.lens = lens;
      this.key = cellKey(entityKey, pk, lens);
    }
    return this.key;
  }
}
