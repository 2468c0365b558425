/**
 * One player of the console game (examples/sdk-cpp): its process, the lines it printed, and
 * commands typed on its standard input.
 *
 * @module
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

const WAIT_MS = 20_000;

export class ConsolePlayer {
  readonly name: string;
  readonly #child: ChildProcessWithoutNullStreams;
  #output = '';
  #exit: Promise<number | null>;

  constructor(binary: string, name: string, args: string[]) {
    this.name = name;
    this.#child = spawn(binary, ['--name', name, ...args]);
    this.#child.stdout.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    this.#child.stderr.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    this.#exit = new Promise((resolve) => this.#child.on('close', resolve));
  }

  get output(): string {
    return this.#output;
  }

  type(command: string): void {
    this.#child.stdin.write(`${command}\n`);
  }

  /** The first match of `pattern` in what the player printed (waits for it). */
  async waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const match = pattern.exec(this.#output);
      if (match !== null) return match;
      if (Date.now() > deadline) {
        throw new Error(`${this.name} never printed ${String(pattern)}:\n${this.#output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Types /quit and resolves with the exit code. */
  async quit(): Promise<number | null> {
    this.type('/quit');
    return this.#exit;
  }

  kill(): void {
    this.#child.kill('SIGKILL');
  }
}
