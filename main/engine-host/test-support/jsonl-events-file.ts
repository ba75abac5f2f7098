import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** Writes `count` timeline events, one JSON object a line, as an export from another org would hold them. */
export async function writeJsonlEvents(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  for (let index = 0; index < count; index += 1) {
    const line = `${JSON.stringify({ kind: index % 3 === 0 ? 'notes' : 'imported_reading', agent: `agent-${index % 7}`, tick: Math.floor(index / 100), text: `reading number ${index} of the night sky`, value: index })}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
