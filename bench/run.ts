// `npm run bench`: runs every bench/*.bench.ts and writes the results to docs/BENCHMARKS.md.
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Bench, BenchSection } from './bench-section';

const benchDir = import.meta.dirname;
const only = process.argv.slice(2);

function renderSection(section: BenchSection): string {
  const lines = [
    `## ${section.title}`,
    '',
    '| metric | result | target | met |',
    '| --- | --- | --- | --- |',
  ];
  for (const row of section.rows) {
    lines.push(
      `| ${row.metric} | ${row.value} | ${row.target ?? ''} | ${row.met === undefined ? '' : row.met ? 'yes' : 'NO'} |`,
    );
  }
  for (const note of section.notes ?? []) lines.push('', note);
  return lines.join('\n');
}

const files = readdirSync(benchDir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();

const sections: string[] = [];
for (const file of files) {
  console.log(`Running ${file}…`);
  const bench = (await import(pathToFileURL(join(benchDir, file)).href)).default as Bench;
  const section = await bench();
  console.log(renderSection(section), '\n');
  sections.push(renderSection(section));
}

const cpu = cpus();
const header = [
  '# Benchmarks',
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` on ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, ${process.platform} ${process.arch}, Node ${process.versions.node}. ` +
    'The machine is shared, so single numbers are noisy; baselines are measured in the same run.',
  '',
].join('\n');
writeFileSync(resolve(benchDir, '..', 'docs', 'BENCHMARKS.md'), `${header}\n${sections.join('\n\n')}\n`);
console.log('Wrote docs/BENCHMARKS.md');
