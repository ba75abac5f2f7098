#!/usr/bin/env node
// The "browser" of the conformance runs (named by BROWSER): it opens the sign-in page it is given, whose
// authorization server answers at once with a redirect (the scenario servers sign anyone in), and follows
// that redirect to the engine's loopback address, as a person's browser would after they said yes.
const page = process.argv.at(-1);
const answer = await fetch(page, { redirect: 'manual' });
const location = answer.headers.get('location');
if (!location) {
  process.stderr.write(`follow-sign-in: ${page} answered ${answer.status} without a redirect\n`);
  process.exit(1);
}
const back = await fetch(new URL(location, page), { redirect: 'manual' });
process.exit(back.ok ? 0 : 1);
