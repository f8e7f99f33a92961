import { Audited } from '@/modules/audit';
import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { BatchIntake } from '../intake/domain/batch-intake';
import { BatchQueryService } from '../batches/domain/batch-query.service';
import { insurerName } from '@/modules/insurers';
import { CsvRefused } from '@/platform/http/csv-intake';
import { ThrottledError } from '@/platform/kernel/errors';
import {
  errorReason,
  lineErrors,
  readUpload,
  resultsHeader,
  resultsRows,
  templateCsv,
} from './batch-csv';
import { accountOf, csvDownload, FormPage, renderPage, uploadedFile, webUser } from '@/modules/web';

/** Errors shown at most (a file with thousands of bad rows still gets a readable page). */
const MAX_SHOWN_ERRORS = 200;
/** Failed and no-plan rows listed on a batch's page (the CSV has them all). */
const MAX_SHOWN_ROWS = 200;
/** Past batches listed on the upload page, newest first. */
const RECENT_BATCHES = 50;

/**
 * Batch checks from a CSV file (docs/api.md, Batches): upload (through the API's batch intake, so the
 * rules and messages are the API's, shown by file line), progress, results download.
 */
@PageController('app/batches')
export class WebBatchesController {
  constructor(
    private readonly intake: BatchIntake,
    private readonly batches: BatchQueryService,
  ) {}

  /**
   * The upload form with the recent batches; `refused` says why a file was refused, or the API's
   * errors of its rows are placed by file line (`lines`); `throttled`, that the user's budget of
   * batch items is spent for now.
   */
  private readonly batchesPage = new FormPage<{
    refused?: string[];
    lines?: number[];
    throttled?: string;
  }>(
    { view: 'batches.njk', title: 'Batch check', section: 'batches' },
    async (req, { refused = [], lines = [], throttled, errors: tree }) => {
      const errors = tree ? lineErrors(tree, lines) : refused;
      const shown = errors.slice(0, MAX_SHOWN_ERRORS);
      return {
        throttled: throttled ?? null,
        errors: shown,
        hidden: errors.length - shown.length,
        batches: await this.batches.listRecent(accountOf(req), RECENT_BATCHES),
      };
    },
  );

  @PageRead()
  async uploadPage(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.batchesPage.show(req, res, {});
  }

  @PageRead('template.csv')
  template(@Res() res: Response): void {
    csvDownload(res, 'eligibility-batch-template.csv').send(templateCsv());
  }

  @PageWrite('', { audit: Audited('eligibility_batch', 'create', 'location') })
  async upload(@Req() req: Request, @Res() res: Response): Promise<void> {
    let parsed: Awaited<ReturnType<typeof readUpload>>;
    try {
      // Read as it streams in, refused at the first limit (docs/api.md, Batches).
      parsed = await readUpload(uploadedFile(req));
    } catch (e) {
      if (!(e instanceof CsvRefused)) throw e;
      res.status(400);
      return await this.batchesPage.show(req, res, { refused: [e.message] });
    }
    try {
      await this.batchesPage.post(req, res, { lines: parsed.lines }, async () => {
        const { uid } = await this.intake.create(accountOf(req), parsed.body, {
          userId: webUser(req)!.userId,
        });
        res.redirect(303, `/app/batches/${encodeURIComponent(uid)}`);
      });
    } catch (e) {
      // The user's hourly budget of batch items (docs/api.md, Batches), as a key's.
      if (!(e instanceof ThrottledError)) throw e;
      res.status(429).setHeader('Retry-After', String(e.retryAfterSeconds));
      await this.batchesPage.show(req, res, {
        throttled: `This hour's batch checks are used up; nothing was checked. Upload the file again in ${Math.ceil(e.retryAfterSeconds / 60)} minutes.`,
      });
    }
  }

  @PageRead(':uid', { audit: Audited('eligibility_batch', 'read', 'param:uid') })
  async progress(
    @Req() req: Request,
    @Res() res: Response,
    @Param('uid') uid: string,
  ): Promise<void> {
    const batch = await this.batches.get(accountOf(req), uid);
    const done = batch.count - batch.counts.processing;
    const attention = await this.batches.attention(accountOf(req), uid, MAX_SHOWN_ROWS);
    renderPage(req, res, 'batch.njk', {
      title: 'Batch check',
      section: 'batches',
      batch,
      done,
      // The rows a front desk must follow up: failed (with why) or no plan found.
      attention: attention.items.map((i) => ({
        ...i,
        patient: `${i.query.firstName} ${i.query.lastName}`,
        insurers: i.insurerCodes.map(insurerName).join(', '),
        reason: i.outcome === 'error' ? errorReason(i.errorCode, i.reason) : i.reason,
      })),
      attentionHidden: attention.total - attention.items.length,
      noPlanFound: attention.noPlanFound,
      percent: Math.floor((done * 100) / batch.count),
      // Without JavaScript, the page refreshes itself while the batch runs.
      refreshSeconds: batch.status === 'processing' ? 2 : null,
    });
  }

  @PageRead(':uid/results.csv', { audit: Audited('eligibility_batch', 'read', 'param:uid') })
  async results(
    @Req() req: Request,
    @Res() res: Response,
    @Param('uid') uid: string,
  ): Promise<void> {
    const accountId = accountOf(req);
    await this.batches.get(accountId, uid); // 404 before any byte is sent
    csvDownload(res, `eligibility-batch-${uid.replace(/[^A-Za-z0-9_-]/g, '_')}.csv`);
    res.write(resultsHeader());
    for await (const chunk of this.batches.export(accountId, uid)) res.write(resultsRows(chunk));
    res.end();
  }
}
