/**
 * Reads the tables and columns that `src/storage/sql/schema.ts` declares for Kysely (its
 * `Database` interface) with the TypeScript compiler, for src/storage/schemaParity.test.ts.
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The Kysely schema, relative to this file. */
const SCHEMA_FILE = fileURLToPath(new URL('../../src/storage/sql/schema.ts', import.meta.url));

/** A column as schema.ts declares it. */
export interface DeclaredColumn {
  /** Whether the type a row is read as (a `ColumnType`'s select type) includes null. */
  nullable: boolean;
}

/** The tables of `Database`, with their columns, by name. */
export type DeclaredSchema = Record<string, Record<string, DeclaredColumn>>;

/** Whether `type`, or for a Kysely `ColumnType` its select type, includes null. */
function selectsNull(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): boolean {
  const select = type.getProperty('__select__');
  const read = select === undefined ? type : checker.getTypeOfSymbolAtLocation(select, at);
  const members = read.isUnion() ? read.types : [read];
  return members.some((member) => (member.flags & ts.TypeFlags.Null) !== 0);
}

/**
 * Type-checks schema.ts (with the modules it imports) and lists the properties of its
 * `Database` interface, inherited ones included, and each table's columns.
 */
export function readDeclaredSchema(): DeclaredSchema {
  const program = ts.createProgram([SCHEMA_FILE], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SCHEMA_FILE);
  if (source === undefined) throw new Error(`cannot read ${SCHEMA_FILE}`);
  const database = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'Database',
  );
  if (database === undefined) throw new Error('schema.ts declares no Database interface');
  const schema: DeclaredSchema = {};
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns: Record<string, DeclaredColumn> = {};
    const tableType = checker.getTypeOfSymbolAtLocation(table, database);
    for (const column of tableType.getProperties()) {
      const columnType = checker.getTypeOfSymbolAtLocation(column, database);
      columns[column.name] = { nullable: selectsNull(checker, columnType, database) };
    }
    schema[table.name] = columns;
  }
  return schema;
}
