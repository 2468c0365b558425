import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statementCache.js';

describe('withStatementCache', () => {
  const open = () => {
    const raw = new SqliteDatabase(':memory:');
    raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    return raw;
  };

  it('hands out one prepared statement per SQL text', () => {
    const raw = open();
    const db = withStatementCache(raw);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    expect(db.prepare('INSERT INTO t (v) VALUES (?)')).toBe(insert);
    insert.run(['a']);
    db.prepare('INSERT INTO t (v) VALUES (?)').run(['b']);
    expect(db.prepare('SELECT v FROM t ORDER BY id').all([])).toEqual([{ v: 'a' }, { v: 'b' }]);
    db.close();
    expect(raw.open).toBe(false);
  });

  it('drops the least recently used statement beyond its size', () => {
    const db = withStatementCache(open(), 2);
    const one = db.prepare('SELECT 1');
    const two = db.prepare('SELECT 2');
    expect(db.prepare('SELECT 1')).toBe(one);
    db.prepare('SELECT 3');
    // SELECT 2 was the least recently used: it was dropped, SELECT 1 was kept.
    expect(db.prepare('SELECT 1')).toBe(one);
    expect(db.prepare('SELECT 2')).not.toBe(two);
    db.close();
  });

  it('prepares a fresh statement while the cached one is being iterated', () => {
    const raw = open();
    raw.exec("INSERT INTO t (v) VALUES ('a'), ('b')");
    const db = withStatementCache(raw);
    const sql = 'SELECT v FROM t ORDER BY id';
    const iterator = db.prepare(sql).iterate([]);
    expect(iterator.next().value).toEqual({ v: 'a' });
    const other = db.prepare(sql);
    expect(other.all([])).toEqual([{ v: 'a' }, { v: 'b' }]);
    expect(iterator.next().value).toEqual({ v: 'b' });
    expect(iterator.next().done).toBe(true);
    db.close();
  });
});
