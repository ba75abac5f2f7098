import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUDGETS_FILE, readBudgets } from './budgets-file';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function orgWithBudgets(text: string | null): string {
  const org = mkdtempSync(join(tmpdir(), 'lemming-budgets-'));
  made.push(org);
  mkdirSync(join(org, 'lemming', 'config'), { recursive: true });
  if (text !== null) writeFileSync(join(org, BUDGETS_FILE), text);
  return org;
}

describe('budgets.json', () => {
  it('is no budgets when missing', async () => {
    expect(await readBudgets(orgWithBudgets(null))).toMatchObject({ ok: true, exists: false, value: {} });
  });

  it('reads limits for the org and for agents, keeping unknown keys with a warning that says where', async () => {
    const read = await readBudgets(
      orgWithBudgets(
        '{\n  "org": {"monthly_money": 20},\n  "agents": {"writer": {"daily_credits": 1, "weekly_credits": 3}},\n  "note": "ours"\n}\n',
      ),
    );
    expect(read.ok && read.value).toEqual({
      org: { monthly_money: 20 },
      agents: { writer: { daily_credits: 1, weekly_credits: 3 } },
      note: 'ours',
    });
    expect(read.ok && read.warnings.map((warning) => [warning.field, warning.line])).toEqual([
      ['note', 4],
      ['agents.writer.weekly_credits', 3],
    ]);
  });

  it('refuses a limit that is not a positive number, naming the field and its line', async () => {
    const read = await readBudgets(
      orgWithBudgets('{\n  "agents": {\n    "writer": {"daily_money": 0}\n  }\n}\n'),
    );
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error[0]).toMatchObject({
      file: BUDGETS_FILE,
      field: 'agents.writer.daily_money',
      line: 3,
      message: 'daily_money must be more than 0 (leave it out for no limit)',
    });
    const huge = await readBudgets(orgWithBudgets('{"org": {"monthly_credits": 1e400}}'));
    expect(!huge.ok && huge.error[0]?.field).toBe('org.monthly_credits');
  });
});
