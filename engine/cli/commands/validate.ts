import { formatProblem } from '../../api/problem';
import { validateOrg } from '../../app/validate';
import { EXIT_FAILURE, EXIT_OK, printJson } from '../cli-io';
import type { CommandCode } from '../command';
import { orgFolder } from '../org-arg';

export const validateCommand: CommandCode = {
  options: { strict: { type: 'boolean' }, json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const report = await validateOrg(org);
    if (values.json) printJson(io, report);
    else {
      const valid = report.agents.filter((agent) => agent.valid).length;
      io.stdout.write(
        `${report.agents.length} agents, ${valid} valid, ${report.agents.length - valid} invalid\n`,
      );
      for (const problem of report.errors) io.stdout.write(`error: ${formatProblem(problem)}\n`);
      for (const problem of report.warnings) io.stdout.write(`warning: ${formatProblem(problem)}\n`);
      if (report.errors.length === 0) io.stdout.write('no errors\n');
    }
    return values.strict && report.errors.length > 0 ? EXIT_FAILURE : EXIT_OK;
  },
};
