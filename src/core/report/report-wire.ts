// A report's model as another machine's flower-pty prints it (`report --json`), read back to be drawn
// here (`report HOST:ID`). Its shape is checked as far as the page relies on it; a field of the wrong
// kind is another program's output, and the command says so in one line rather than draw it. Pure.

import type { ReportModel } from './report-model.js';
import { jsonObject } from '../json-object.js';

/** the model, or null when the text is not one (not JSON, another version, a field of the wrong kind) */
export function readReportModel(text: string): ReportModel | null {
  const m = jsonObject(text);
  if (!m) return null;
  const isStr = (v: unknown) => typeof v === 'string';
  const isStrOrNull = (v: unknown) => v === null || typeof v === 'string';
  const isObjects = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
  const ok =
    m['version'] === 1 &&
    isStr(m['generatedAt']) &&
    isStr(m['workbench']) &&
    isStrOrNull(m['step']) &&
    isStrOrNull(m['cwd']) &&
    typeof m['live'] === 'boolean' &&
    typeof m['costUsd'] === 'number' &&
    typeof m['turns'] === 'number' &&
    isStr(m['ending']) &&
    Array.isArray(m['notes']) &&
    (m['notes'] as unknown[]).every(isStr) &&
    isObjects(m['generations']) &&
    isObjects(m['otherDocuments']) &&
    isStrOrNull(m['deadEndsTrend']);
  return ok ? (m as unknown as ReportModel) : null;
}
