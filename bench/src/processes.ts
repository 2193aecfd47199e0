import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server process under test: the real one or the reference. */
export interface Target {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Milliseconds from spawn to the first answer of the expected status. */
  readonly startMs: number;
  /** What the process printed, for the report of a failure. */
  output(): string;
  stop(): Promise<void>;
}

export interface ProbeRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

/** Header values as node:http gives them: a list only for the headers that may repeat (set-cookie). */
export type HeaderValues = Readonly<Record<string, string | readonly string[]>>;

export interface Answer {
  readonly status: number;
  readonly headers: HeaderValues;
  readonly body: string;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no TCP port could be reserved');
  return address.port;
}

/** One request on a fresh connection (node:http, so that no lazily loaded client skews the start time). */
export function send(url: string, probe: ProbeRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL(probe.path, url),
      { method: probe.method, headers: probe.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: definedHeaders(res.headers),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(probe.body);
  });
}

function definedHeaders(headers: IncomingHttpHeaders): HeaderValues {
  return Object.fromEntries(
    Object.entries(headers).filter((entry): entry is [string, string | string[]] => entry[1] !== undefined),
  );
}

/**
 * Spawns `node <script>` and waits for the first answer to `probe` of the expected status (200 unless
 * `probeStatus` says otherwise): the time from spawn to that answer is the start time. Any other answer, or an exit,
 * fails.
 */
export async function startProcess(options: {
  name: string;
  script: string;
  nodeArgs?: readonly string[];
  env: Readonly<Record<string, string>>;
  port: number;
  probe: ProbeRequest;
  probeStatus?: number;
  timeoutMs?: number;
}): Promise<Target> {
  const url = `http://127.0.0.1:${options.port}`;
  let output = '';
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));

  const deadline = startedAt + (options.timeoutMs ?? 15_000);
  for (;;) {
    if (exitCode !== undefined) throw new Error(`${options.name} exited with ${exitCode} before answering:\n${output}`);
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not answer within ${options.timeoutMs ?? 15_000} ms:\n${output}`);
    }
    const answer = await send(url, options.probe).catch(() => undefined);
    if (answer !== undefined) {
      if (answer.status !== (options.probeStatus ?? 200)) {
        child.kill('SIGKILL');
        throw new Error(`${options.name} answered its first request with ${answer.status}: ${answer.body}\n${output}`);
      }
      break;
    }
    await sleep(5);
  }
  const startMs = performance.now() - startedAt;
  return {
    name: options.name,
    url,
    pid: child.pid!,
    startMs,
    output: () => output,
    stop: () => stopProcess(child, exited, options.name, () => output),
  };
}

async function stopProcess(
  child: ChildProcess,
  exited: Promise<number | null>,
  name: string,
  output: () => string,
): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(10_000).then(() => 'timeout' as const)]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    throw new Error(`${name} did not stop within 10 s of SIGTERM`);
  }
  if (code !== 0) throw new Error(`${name} stopped with exit code ${code}:\n${output()}`);
}

/** CPU seconds (user + system) a process has used so far, from /proc; undefined where there is no /proc. */
export function cpuSeconds(pid: number): number | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The fields after the command name (which may hold spaces) start at the state, field 3; utime and stime are 14, 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const clockTicksPerSecond = 100;
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond;
}

/** The peak resident set size of a process since it started (VmHWM), in bytes. */
export function peakRssBytes(pid: number): number | undefined {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readProc(`/proc/${pid}/status`) ?? '');
  return match === null ? undefined : Number(match[1]) * 1024;
}

/** The resident set size of a process now (VmRSS), in bytes. */
export function residentBytes(pid: number): number | undefined {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readProc(`/proc/${pid}/status`) ?? '');
  return match === null ? undefined : Number(match[1]) * 1024;
}

/** The soft and hard limits of open files of a process (`ulimit -n`), from /proc; undefined where there is none. */
export function openFileLimits(pid: number | 'self'): { soft: number; hard: number } | undefined {
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(readProc(`/proc/${pid}/limits`) ?? '');
  if (match === null) return undefined;
  const limit = (text: string) => (text === 'unlimited' ? Number.POSITIVE_INFINITY : Number(text));
  return { soft: limit(match[1]!), hard: limit(match[2]!) };
}

/**
 * Raises a process's soft limit of open files to `wanted` (at most its hard limit) with util-linux's `prlimit`.
 * Answers the soft limit it has afterwards, or undefined where it cannot be read.
 */
export function raiseOpenFileLimit(pid: number, wanted: number): number | undefined {
  const limits = openFileLimits(pid);
  if (limits === undefined || limits.soft >= wanted) return limits?.soft;
  const soft = Math.min(wanted, limits.hard);
  try {
    execFileSync(
      'prlimit',
      [`--pid=${pid}`, `--nofile=${soft}:${Number.isFinite(limits.hard) ? limits.hard : 'unlimited'}`],
      { stdio: 'ignore' },
    );
  } catch {
    // No prlimit, or not allowed: the limit stays as it was, and the caller says so.
  }
  return openFileLimits(pid)?.soft;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
