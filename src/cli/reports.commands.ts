import { Command, CommandRunner, Option } from 'nest-commander';
import { UnmatchedRemittances } from '@/modules/claims/reports/domain/unmatched-remittances.service';
import { fail, print } from './output';

@Command({
  name: 'reports:unmatched',
  description:
    'List what polled 835s paid that no account owns (unknown claims, shared provider adjustments), newest first',
})
export class UnmatchedReportsCommand extends CommandRunner {
  constructor(private readonly unmatched: UnmatchedRemittances) {
    super();
  }

  async run(_params: string[], options: { limit?: number }): Promise<void> {
    print({ unmatched: await this.unmatched.list(options.limit ?? 100) });
  }

  @Option({ flags: '--limit <n>', description: 'How many (1 to 1000, default 100)' })
  parseLimit(v: string): number {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 1000)
      fail('--limit must be an integer from 1 to 1000');
    return n;
  }
}
