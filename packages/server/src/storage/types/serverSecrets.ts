/** Secrets the server makes at first start. */

/** Secrets the server makes at first start, shared by every node through the database. */
export interface ServerSecretRepository {
  /** The secret named `name`: `candidate` when none was stored yet, else the stored one. */
  getOrCreate(name: string, candidate: string, createdAt: number): Promise<string>;
}
