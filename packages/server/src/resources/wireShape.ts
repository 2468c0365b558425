/**
 * A discord-api-types payload type as the serializers check against it (`satisfies
 * WireShape<APIUser>`): the same field names, optionality, nullability and nesting, with the
 * library's enums and literal unions widened to `number` or `string`, since records hold plain,
 * already validated values, and arrays read-only (a builder may pass on the list it was given). A
 * field renamed, removed or given another kind still fails the typecheck.
 */
export type WireShape<T> = T extends number
  ? number
  : T extends string
    ? string
    : T extends boolean | bigint | null | undefined
      ? T
      : T extends readonly (infer U)[]
        ? readonly WireShape<U>[]
        : T extends object
          ? { [K in keyof T]: WireShape<T[K]> }
          : T;
