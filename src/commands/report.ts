// `flower-pty report`: a lineage as one self-contained HTML page (or one JSON document). Reads the
// manifest, the frozen documents and their archive, the events file and every generation's
// transcript (streamed, never read whole), hands them to the pure model, and writes the page.

import { existsSync, lstatSync, statSync } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { delimiter, join, resolve } from 'node:path';
import { manifestPath, readManifest } from '../adapters/manifest-store.js';
import { loadConfig } from '../adapters/config-file.js';
import { DEFAULT_WORKBENCH } from '../core/options/options-table.js';
import { writeFileAtomic } from '../adapters/atomic-file.js';
import { openRegularFile, ReadRefused } from '../adapters/bounded-read.js';
import { claudeConfigDir } from '../adapters/claude-config-dir.js';
import { HANDOFF_DIR_NAME } from '../adapters/notes-store.js';
import { transcriptPathFor } from '../claude-code/transcript-path.js';
import { TRANSCRIPT_ROWS } from '../claude-code/transcript-rows.js';
import { createTranscriptScanner } from '../core/report/report-transcript.js';
import {
  buildReport,
  cleanManifest,
  lineageGenerations,
  type DocumentFile,
  type ReportModel,
  type TranscriptInput,
} from '../core/report/report-model.js';
import { parseRunEvents, type RunEventRecord } from '../core/run/run-events.js';
import { renderReportHtml } from '../core/report/report-html.js';
import type { Manifest } from '../core/lineage/manifest.js';
import { EXIT, FlowerError } from '../core/errors.js';
import { MAX_PROMPT_ARG_BYTES } from '../claude-code/child-launch.js';
import { hostFailure } from '../core/hosts/host-answer.js';
import { readReportModel } from '../core/report/report-wire.js';
import { terminalText } from '../core/terminal-text.js';
import { oneLine } from '../core/one-line.js';

export interface ReportOptions {
  /** a live run's id (its workbench reported), or HOST:ID: a run on another machine, whose host's
   * `report --json` is fetched over ssh and drawn here */
  run?: string;
  /** --workbench; else found as the run command finds it (FLOWER_PTY_WORKBENCH, the user's config, .flower) */
  workbench?: string;
  cwd: string;
  output?: string;
  events?: string;
  open: boolean;
  json: boolean;
  env: Readonly<Record<string, string | undefined>>;
  out: (line: string) => void;
  now?: () => Date;
  /** the curve's point budget per generation */
  maxPoints?: number;
}

/** documents (and recorded prompts) longer than this are cut on the page: a 10 MB document must not make a 10 MB page */
export const DOCUMENT_LIMIT = 256 * 1024;
/** an events file is flower-pty's own short lines; past this it is not read */
const EVENTS_LIMIT = 64 * 1024 * 1024;
const CHUNK = 1 << 20;

// The first `limit` bytes of a file and its size; null when it cannot be read.
async function readHead(
  path: string,
  limit: number,
): Promise<{ text: string; bytes: number; truncated: boolean } | null> {
  let handle;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, limit));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), bytes: size, truncated: size > limit };
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

async function readDocuments(workbench: string, step: string | null): Promise<DocumentFile[]> {
  const notes = join(workbench, 'notes');
  const archive = join(notes, 'archive', HANDOFF_DIR_NAME);
  const prefix = `${HANDOFF_DIR_NAME}-`;
  const currentNames = (await listDir(notes)).filter(
    (n) => n.endsWith('.md') && (step === null ? n.startsWith(prefix) : n === `${prefix}${step}.md`),
  );
  const archived = (await listDir(archive)).filter(
    (n) => n.endsWith('.md') && (step === null || n.startsWith(`${step}-`)),
  );
  const files: Array<{ path: string; kind: DocumentFile['kind'] }> = [
    ...archived.map((n) => ({
      path: join(archive, n),
      kind: n.endsWith('.draft.md') ? ('draft' as const) : ('archive' as const),
    })),
    // Without a manifest the step is unknown: the newest current document stands for the lineage.
    ...currentNames.slice(-1).map((n) => ({ path: join(notes, n), kind: 'current' as const })),
  ];
  const out: DocumentFile[] = [];
  for (const f of files) {
    const head = await readHead(f.path, DOCUMENT_LIMIT);
    if (head) out.push({ path: f.path, kind: f.kind, ...head });
  }
  return out;
}

async function readSpilledPrompts(
  workbench: string,
): Promise<Map<number, { path: string; text: string; truncated: boolean; tooLong: boolean }>> {
  const notes = join(workbench, 'notes');
  const out = new Map<number, { path: string; text: string; truncated: boolean; tooLong: boolean }>();
  for (const name of await listDir(notes)) {
    const m = /^successor-prompt-(\d+)\.md$/.exec(name);
    if (!m) continue;
    const head = await readHead(join(notes, name), DOCUMENT_LIMIT);
    // Every successor's prompt is recorded on a workbench; only one over the argv limit went through the file.
    if (head)
      out.set(Number(m[1]), {
        path: join(notes, name),
        text: head.text,
        truncated: head.truncated,
        tooLong: head.bytes > MAX_PROMPT_ARG_BYTES,
      });
  }
  return out;
}

// --events is the reader's own path: relative to where the report runs.
function eventsFlag(opts: ModelOptions): string | null {
  return opts.events === undefined ? null : resolve(opts.cwd, opts.events);
}

// The workbench and the events file as the run command finds them: the flag, then FLOWER_PTY_*,
// then the project's <workbench>/config.json, then the user's config. A broken config file is the
// run command's error to stop on; the report says so on the page and goes on from the flags.
function configured(opts: ModelOptions): { workbench: string; events: string | null; problem: string | null } {
  try {
    const cfg = loadConfig({
      cwd: opts.cwd,
      env: opts.env,
      ...(opts.workbench !== undefined ? { workbenchFlag: opts.workbench } : {}),
    }).values;
    return {
      workbench: resolve(opts.cwd, opts.workbench ?? cfg.workbench ?? DEFAULT_WORKBENCH),
      events: eventsFlag(opts) ?? cfg.events ?? null,
      problem: null,
    };
  } catch (error) {
    const problem = `the configuration was not read: ${error instanceof Error ? error.message : String(error)}`;
    return {
      workbench: resolve(opts.cwd, opts.workbench || opts.env.FLOWER_PTY_WORKBENCH || DEFAULT_WORKBENCH),
      events: eventsFlag(opts),
      problem,
    };
  }
}

async function readEvents(
  given: string | null,
  manifest: Manifest | null,
  cwd: string,
): Promise<{ events: RunEventRecord[] | null; path: string | null; problem: string | null }> {
  // A relative path from the configuration is the run's: it was given in the folder the run started in.
  const path = given === null ? null : resolve(manifest?.cwd || cwd, given);
  if (path === null) return { events: null, path: null, problem: null };
  try {
    const st = await stat(path);
    // a FIFO would block the read in open() until a writer came (the report never ending)
    if (!st.isFile()) return { events: null, path, problem: `the events file ${path} is not a regular file: not read` };
    if (st.size > EVENTS_LIMIT)
      return { events: null, path, problem: `the events file ${path} is over ${EVENTS_LIMIT / 1048576} MB: not read` };
    const { events, junk } = parseRunEvents(await readFile(path, 'utf8'));
    return {
      events,
      path,
      problem: junk > 0 ? `${junk} line(s) of the events file ${path} were not events and were skipped` : null,
    };
  } catch {
    return { events: null, path, problem: `the events file ${path} cannot be read` };
  }
}

// Where a session's transcript is: the cwd's folder, else any project folder (a cwd that moved).
async function findTranscript(configDir: string, cwd: string | null, sessionId: string): Promise<string | null> {
  if (cwd) {
    const path = transcriptPathFor(configDir, cwd, sessionId);
    if (existsSync(path)) return path;
  }
  const projects = join(configDir, 'projects');
  for (const dir of await listDir(projects)) {
    const path = join(projects, dir, `${sessionId}.jsonl`);
    if (existsSync(path)) return path;
  }
  return null;
}

// Streams one transcript through the live meter's reader, chunk by chunk, in bounded memory.
async function scanTranscript(
  path: string,
  at: number | null,
  maxPoints: number | undefined,
): Promise<TranscriptInput> {
  const scanner = createTranscriptScanner({
    at,
    rows: TRANSCRIPT_ROWS,
    ...(maxPoints !== undefined ? { maxPoints } : {}),
  });
  try {
    // the path is the manifest's (a cloned repository's can name anything): a regular file only, streamed
    const handle = await openRegularFile(path);
    for await (const chunk of handle.createReadStream({ highWaterMark: CHUNK }) as AsyncIterable<Buffer>)
      scanner.push(chunk);
  } catch (error) {
    if (error instanceof ReadRefused)
      return {
        path,
        scan: null,
        problem: `its transcript ${path} is ${error.why}: flower-pty reads a transcript only as a regular file`,
      };
    return {
      path,
      scan: null,
      problem: `its transcript ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    };
  }
  return { path, scan: scanner.end(), problem: null };
}

function onPath(command: string, env: Readonly<Record<string, string | undefined>>): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

// The platform's opener, detached: the browser outlives this command.
function openInBrowser(file: string, env: Readonly<Record<string, string | undefined>>): void {
  const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
  if (!onPath(opener, env)) {
    throw new FlowerError(
      `report: written to ${file}, but there is no ${opener} on the PATH to open it: open that file in a browser`,
      EXIT.usage,
    );
  }
  const child = spawn(opener, [file], { detached: true, stdio: 'ignore', env: { ...env } as NodeJS.ProcessEnv });
  child.on('error', () => {});
  child.unref();
}

type ModelOptions = Pick<ReportOptions, 'workbench' | 'cwd' | 'events' | 'env' | 'now' | 'maxPoints'>;

/** the report's model of the lineage on this workbench (the web face serves it live, as a page and as JSON) */
export async function reportModel(opts: ModelOptions): Promise<ReportModel> {
  const setup = configured(opts);
  const workbench = setup.workbench;
  let isDir = false;
  try {
    isDir = statSync(workbench).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new FlowerError(
      `report: no workbench at ${workbench} (a --no-workbench run keeps no lineage on disk, ` +
        `so there is nothing to report): point --workbench at a run's folder`,
      EXIT.usage,
    );
  }
  const read = await readManifest(workbench);
  const cleaned = read.manifest ? cleanManifest(read.manifest) : null;
  const manifest = cleaned?.manifest ?? null;
  const manifestMissing = !existsSync(manifestPath(workbench));
  const manifestProblem = manifest
    ? null
    : manifestMissing
      ? `no manifest at ${manifestPath(workbench)}`
      : `the manifest ${manifestPath(workbench)} is malformed (${read.problem})`;
  // A manifest that records its run's events file (an `events_path` field) beats the configuration.
  const recorded = (read.manifest as { events_path?: unknown } | null)?.events_path;
  const ev = await readEvents(
    eventsFlag(opts) ?? (typeof recorded === 'string' ? recorded : null) ?? setup.events,
    manifest,
    opts.cwd,
  );
  const documents = await readDocuments(workbench, manifest?.step ?? null);
  const gens = lineageGenerations(manifest, ev.events);
  if (!manifest && gens.length === 0 && documents.length === 0) {
    throw new FlowerError(
      `report: nothing to report in ${workbench}: ${manifestProblem}, no events file and no documents (a --no-workbench run keeps none)`,
      EXIT.usage,
    );
  }
  const configDir = claudeConfigDir(opts.env);
  const transcripts = new Map<string, TranscriptInput>();
  for (const g of gens) {
    // where the run's claude wrote it (its own config folder, the demo's too), else this claude's config folder
    const recorded = g.transcript_path ?? null;
    const path =
      recorded !== null && existsSync(recorded)
        ? recorded
        : await findTranscript(configDir, manifest?.cwd ?? null, g.session_id);
    if (path === null) {
      const expected =
        recorded ??
        (manifest
          ? transcriptPathFor(configDir, manifest.cwd, g.session_id)
          : `${configDir}/projects/*/${g.session_id}.jsonl`);
      const problem =
        recorded !== null
          ? `its transcript was not found at ${recorded}, where the run recorded it (nor under ${join(configDir, 'projects')})`
          : `its transcript was not found at ${expected} (the manifest does not say where the run's claude kept it: ` +
            `set CLAUDE_CONFIG_DIR to that claude's config folder)`;
      transcripts.set(g.session_id, { path: expected, scan: null, problem });
      continue;
    }
    transcripts.set(
      g.session_id,
      await scanTranscript(path, manifest && manifest.at > 0 ? manifest.at : null, opts.maxPoints),
    );
  }
  return buildReport({
    workbench,
    now: (opts.now?.() ?? new Date()).toISOString(),
    manifest,
    manifestProblem,
    manifestDropped: cleaned?.dropped ?? 0,
    events: ev.events,
    eventsPath: ev.path,
    eventsProblem: [setup.problem, ev.problem].filter((p) => p !== null).join('; ') || null,
    documents,
    transcripts,
    spilledPrompts: await readSpilledPrompts(workbench),
    documentLimit: DOCUMENT_LIMIT,
  });
}

// The model of a named run's lineage: a local id's workbench, or the host's own report of it (its model
// as JSON, drawn here: the page is the same page, and nothing but the model crosses the connection).
async function runModel(run: string, opts: ModelOptions): Promise<ReportModel> {
  const { hostTarget, hostRun } = await import('./host-run.js');
  const target = hostTarget(run);
  if (target === null) {
    const { listRuns, resolveRun } = await import('../server/run-registry.js');
    const { openSocketDir } = await import('../server/socket-dir.js');
    const live = resolveRun((await listRuns(await openSocketDir(opts.env))).runs, {
      id: run,
      cwd: opts.cwd,
      workbench: null,
      command: 'report',
      own: (await import('../adapters/own-command-here.js')).ownCommandHere(opts.env as NodeJS.ProcessEnv, opts.cwd),
    });
    if (live.workbench === null)
      throw new FlowerError(
        `report: run ${terminalText(run)} runs with --no-workbench: it keeps no lineage on disk to report`,
        EXIT.usage,
      );
    return reportModel({ ...opts, workbench: live.workbench });
  }
  const live = await hostRun(target, opts.env as NodeJS.ProcessEnv);
  if (live.workbench === null)
    throw new FlowerError(
      `report: run ${terminalText(run)} runs with --no-workbench: it keeps no lineage on disk to report`,
      EXIT.usage,
    );
  return hostReportModel(target.host, live.workbench, opts.env);
}

/** the model of a lineage on another machine: its flower-pty's `report --json` of that workbench, read */
export async function hostReportModel(
  host: string,
  workbench: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ReportModel> {
  const { runOnHost } = await import('../adapters/ssh-host.js');
  const reply = await runOnHost(host, ['report', '--json', '--workbench', workbench], env);
  const failure = hostFailure(host, reply);
  if (failure !== null) throw new FlowerError(failure, EXIT.usage);
  if (reply.code !== 0)
    throw new FlowerError(
      `report on ${terminalText(host)} failed (exit ${reply.code}): ${terminalText(oneLine(reply.stderr, 200))}`,
      EXIT.usage,
    );
  const read = readReportModel(reply.stdout);
  if ('problem' in read)
    throw new FlowerError(
      `report: ${terminalText(host)} answered with something that is not a report this flower-pty draws: ` +
        `${terminalText(read.problem)} ("${terminalText(oneLine(reply.stdout, 60))}")`,
      EXIT.usage,
    );
  return read.model;
}

// The page; a remote's model whose inner fields the page cannot read is that host's fault, said in one line.
function drawn(model: ReportModel, run: string | undefined): string {
  if (!run?.includes(':')) return renderReportHtml(model);
  try {
    return renderReportHtml(model);
  } catch (error) {
    throw new FlowerError(
      `report: the lineage ${terminalText(run)} sent cannot be drawn ` +
        `(${terminalText(oneLine(error instanceof Error ? error.message : String(error), 120))}): is its flower-pty this one's version?`,
      EXIT.usage,
    );
  }
}

export async function runReport(opts: ReportOptions): Promise<number> {
  // `-o ''` resolves to the folder the person is in: say the value is empty, not that the folder is one
  if (opts.output !== undefined && opts.output.trim() === '')
    throw new FlowerError(
      'report: -o is empty: name the HTML file to write, e.g. -o report.html (or leave -o out for <workbench>/report.html)',
      EXIT.usage,
    );
  const model = opts.run === undefined ? await reportModel(opts) : await runModel(opts.run, opts);
  // a run on another machine: the page is written here, its workbench being there
  const workbench = opts.run?.includes(':') ? opts.cwd : model.workbench;
  if (opts.json) {
    opts.out(JSON.stringify(model));
    return EXIT.ok;
  }
  const file = resolve(
    opts.cwd,
    opts.output ??
      join(
        workbench,
        opts.run?.includes(':') ? `report-${opts.run.replace(/[^A-Za-z0-9._-]+/g, '-')}.html` : 'report.html',
      ),
  );
  const html = drawn(model, opts.run);
  // An atomic write renames over what is there: a device, a FIFO or a folder named with -o would be
  // replaced (or the write would claim success to /dev/full); only a new path or a regular file is taken.
  const there = lstatSync(file, { throwIfNoEntry: false });
  if (there && !there.isFile()) {
    throw new FlowerError(
      `report: ${file} is ${there.isDirectory() ? 'a folder' : there.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}: ` +
        `name a new file or a regular one with -o, e.g. -o report.html`,
      EXIT.usage,
    );
  }
  try {
    await writeFileAtomic(file, html);
  } catch (error) {
    throw new FlowerError(
      `report: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      EXIT.usage,
      { cause: error },
    );
  }
  const size = Buffer.byteLength(html);
  opts.out(
    `report: ${file} (${model.generations.length} generation(s), ` +
      `${(size / 1024).toFixed(1)} KB${model.notes.length > 0 ? `; missing data: ${model.notes.length} note(s) on the page` : ''})`,
  );
  if (opts.open) openInBrowser(file, opts.env);
  return EXIT.ok;
}
