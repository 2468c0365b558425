/**
 * The people of a running kit: those the world named, by name, and anyone else by their token.
 * Each is one {@link Person} per kit until a reset, which closes their gateway sessions (the
 * platform forgets them) so the next use starts afresh.
 *
 * @module
 */
import { Person, type PersonIdentity, type PlatformUrls } from './person.js';

/** The people of a kit. */
export class People {
  readonly #urls: PlatformUrls;
  #identities: Readonly<Record<string, PersonIdentity>>;
  readonly #people = new Map<string, Person>();

  /** @internal Made by `startGuildhall`. */
  constructor(urls: PlatformUrls, identities: Readonly<Record<string, PersonIdentity>>) {
    this.#urls = urls;
    this.#identities = identities;
  }

  /** The names the world gave its people. */
  get names(): string[] {
    return Object.keys(this.#identities);
  }

  /**
   * The person the world named `name`. Their gateway session opens on the first action that
   * needs it; `await person.connect()` opens it before an action whose effects a test waits for.
   * @throws TypeError naming the world's people when it has nobody of that name.
   */
  get(name: string): Person {
    const known = this.#people.get(name);
    if (known !== undefined) return known;
    const identity = this.#identities[name];
    if (identity === undefined)
      throw new TypeError(
        `the world has no person "${name}"; it has ${this.names.map((n) => `"${n}"`).join(', ') || 'nobody'}`,
      );
    const person = new Person(identity, this.#urls);
    this.#people.set(name, person);
    return person;
  }

  /** A person the world did not name (one a test registered itself), by id, name and token. */
  as(identity: PersonIdentity): Person {
    return new Person(identity, this.#urls);
  }

  /** @internal Closes every session and forgets the people (a reset or a new world). */
  forget(identities?: Readonly<Record<string, PersonIdentity>>): void {
    for (const person of this.#people.values()) person.disconnect();
    this.#people.clear();
    if (identities !== undefined) this.#identities = identities;
  }
}
