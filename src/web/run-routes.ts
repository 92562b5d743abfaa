// A run's own API requests: its live report page (`/api/run/KEY/report`, drawn as `flower-pty report`
// draws it) and its lineage for the run page (`/api/run/KEY/lineage`), both from the report's model
// (commands/report.ts hands it in).

import type { ServerResponse } from 'node:http';
import { renderReportHtml } from '../core/report/report-html.js';
import type { ReportModel } from '../core/report/report-model.js';
import type { FollowedRun, RunFollower } from './run-follower.js';
import { HTML_TYPE } from './static-files.js';
import { refuse, send } from './http-answer.js';

/** what a run page's lineage shows of the report: each generation, how it ended, its document */
export function lineageOf(model: ReportModel) {
  return {
    generations: model.generations.map((g) => ({
      n: g.n,
      startedAt: g.startedAt,
      endedAt: g.endedAt,
      end: g.end,
      endWords: g.endWords,
      peak: g.peak,
      document: g.document ? { path: g.document.path, text: g.document.text, truncated: g.document.truncated } : null,
    })),
    notes: model.notes,
  };
}

export interface RunRouteOptions {
  follower: Pick<RunFollower, 'get'>;
  report(run: FollowedRun, o: { fresh: boolean }): Promise<ReportModel>;
}

export async function answerRunRoute(
  res: ServerResponse,
  id: string,
  what: 'report' | 'lineage',
  o: RunRouteOptions,
): Promise<void> {
  const run = o.follower.get(id);
  if (!run) return refuse(res, 404, `no live run has id ${id}`);
  let model: ReportModel;
  try {
    model = await o.report(run, { fresh: what === 'report' });
  } catch (error) {
    return refuse(res, 404, `no lineage to show: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The report's own page, as `flower-pty report` writes it: inline style and SVG, no script (the CSP holds).
  if (what === 'report') {
    let html: string;
    try {
      html = renderReportHtml(model);
    } catch (error) {
      // a model the page cannot draw (its checks passed, a value still out of a drawing's range): one line
      return refuse(
        res,
        502,
        `the lineage of ${run.host ?? 'this machine'}'s run ${id} cannot be drawn: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return send(res, 200, HTML_TYPE, html);
  }
  return send(res, 200, 'application/json', JSON.stringify(lineageOf(model)));
}
