#!/usr/bin/env node
/**
 * The `guildhall` executable: the only module that reads process.env and process.argv.
 */
// First and alone: Node's tick objects' shape held before the rest loads (tickShape.ts).
import './tickShape.js';
import { createInterface } from 'node:readline/promises';

const { runCli } = await import('./cli/index.js');

/** One question on the terminal (RPC consent), when standard input is one. */
async function ask(question: string): Promise<string | null> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  // Ctrl-C while asking stops the command, as it does otherwise (the question is refused).
  terminal.once('SIGINT', () => {
    terminal.close();
    process.kill(process.pid, 'SIGINT');
  });
  try {
    return await terminal.question(question);
  } catch {
    return null;
  } finally {
    terminal.close();
  }
}

const stopSignal = new Promise<string>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      resolve(signal);
    });
});

runCli(process.argv.slice(2), process.env, {
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
  stopSignal,
  ask: process.stdin.isTTY ? ask : undefined,
  isTerminal: process.stdout.isTTY,
  async readStdin() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `guildhall: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
