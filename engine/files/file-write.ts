/** A change to one file of the org that a turn owes once it is committed. */
export interface FileWrite {
  /** Relative to the org folder. */
  path: string;
  mode: 'write' | 'append' | 'delete';
  /** Empty for a delete. */
  content: string;
}
