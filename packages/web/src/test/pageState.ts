/**
 * Runs before each of the web project's test files. The files of a worker share one module graph
 * (`isolate: false`, as the Node projects do: a fresh graph per file cost the project four times
 * the CPU, mostly re-importing React and jsdom's globals), so what a page keeps for its lifetime
 * is reset here, as a newly opened page would find it: no session token, empty storage.
 */
import { beforeAll } from 'vitest';
import { setToken } from '../lib/session.js';

beforeAll(() => {
  setToken(null);
  localStorage.clear();
  sessionStorage.clear();
});
