import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confinement } from './confinement';
import { detectConfinement } from './detect-confinement';
import { runShellCommand } from './run-shell-command';
import { shellPlaces } from './shell-places';
import { createShellOrg, SECRET_CANARY, UNCONFINED, type ShellOrg } from './test-support/shell-org';

const detected = await detectConfinement();
const bubblewrap = detected.kind === 'bubblewrap' ? detected : null;
const skipReason =
  detected.kind === 'none'
    ? `bubblewrap cannot run here: ${detected.reason}`
    : `confinement here is ${detected.kind}`;

/**
 * Each escape is tried twice: unconfined, where it must work (so the test can see a leak), and under
 * bubblewrap, where it must not.
 */
describe.skipIf(bubblewrap === null)(
  `under bubblewrap${bubblewrap ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    const confined = bubblewrap as Confinement;
    let org: ShellOrg;
    beforeAll(async () => {
      org = await createShellOrg();
    });
    afterAll(() => org.dispose());

    it('was detected with the hardened options where this bwrap supports them', () => {
      expect(bubblewrap).toMatchObject({ kind: 'bubblewrap', bwrapPath: expect.stringMatching(/bwrap$/) });
    });

    it('cannot read a file outside the org', async () => {
      const command = `cat ${org.outsideFile}`;
      expect((await org.run(command, UNCONFINED)).stdout.text).toContain(SECRET_CANARY);
      const run = await org.run(command, confined);
      expect(run.exitCode).not.toBe(0);
      expect(run.stdout.text + run.stderr.text).not.toContain(SECRET_CANARY);
    });

    it('cannot read the host files in /etc or the home folder', async () => {
      const run = await org.run('cat /etc/hostname; ls /root /home', confined);
      expect(run.exitCode).not.toBe(0);
      expect(run.stdout.text).toBe('');
      if (existsSync('/etc/hostname')) {
        const hostname = (await readFile('/etc/hostname', 'utf8')).trim();
        expect(run.stderr.text).not.toContain(hostname === '' ? SECRET_CANARY : `${hostname}\n`);
      }
    });

    it("cannot read another agent's folder in the same org", async () => {
      const other = join(org.org, 'agents', 'b', 'workspace');
      await mkdir(other, { recursive: true });
      await writeFile(join(other, 'private.txt'), SECRET_CANARY);
      const command = 'cat ../../b/workspace/private.txt';
      expect((await org.run(command, UNCONFINED)).stdout.text).toBe(SECRET_CANARY);
      const run = await org.run(command, confined);
      expect(run.exitCode).not.toBe(0);
      expect(run.stdout.text).toBe('');
    });

    it('does not follow a link in the workspace out of the sandbox (LeMMing did)', async () => {
      await symlink(org.outsideFile, join(org.workspace, 'escape'));
      expect((await org.run('cat escape', UNCONFINED)).stdout.text).toContain(SECRET_CANARY);
      const run = await org.run('cat escape', confined);
      expect(run.exitCode).not.toBe(0);
      expect(run.stdout.text).not.toContain(SECRET_CANARY);
    });

    it('cannot write outside the workspace and shared/: nothing lands on the host', async () => {
      const inOrg = [
        join(org.org, 'planted.json'),
        join(org.agentDir, 'resume.json'),
        join(org.root, 'planted.txt'),
      ];
      const command = inOrg.map((target) => `echo x > ${target}`).join('; ');
      await org.run(command, UNCONFINED);
      for (const target of inOrg) expect(existsSync(target)).toBe(true);
      await Promise.all(inOrg.map((target) => rm(target)));

      // This org lives under /tmp, which the sandbox replaces with a private tmpfs: writes there vanish with it.
      await org.run(command, confined);
      for (const target of inOrg) expect(existsSync(target)).toBe(false);
    });

    it('cannot write to the system or the root folder', async () => {
      const run = await org.run('echo x > /usr/planted; echo x > /planted; mkdir /etc/planted', confined);
      expect(run.exitCode).not.toBe(0);
      expect(run.stderr.text.match(/Read-only file system/g)).toHaveLength(3);
      expect(existsSync('/usr/planted') || existsSync('/planted') || existsSync('/etc/planted')).toBe(false);
    });

    it('can write in the workspace and in shared/, and the files are on the host', async () => {
      const run = await org.run(
        'echo work > made.txt && echo team > ../../../shared/made.txt && cat made.txt',
        confined,
      );
      expect(run).toMatchObject({ exitCode: 0 });
      expect(run.stdout.text).toBe('work\n');
      expect(await readFile(join(org.workspace, 'made.txt'), 'utf8')).toBe('work\n');
      expect(await readFile(join(org.shared, 'made.txt'), 'utf8')).toBe('team\n');
    });

    it('has a private /tmp that is gone afterwards', async () => {
      const name = `lemming-shell-tmp-${process.pid}`;
      const run = await org.run(`echo t > /tmp/${name} && cat /tmp/${name}`, confined);
      expect(run.stdout.text).toBe('t\n');
      expect(existsSync(`/tmp/${name}`)).toBe(false);
    });

    it('honours a read-only grant from the resume', async () => {
      const sandbox = org.sandbox({
        allow_read: ['agents/a/workspace', 'shared'],
        allow_write: ['agents/a/workspace'],
      });
      await writeFile(join(org.shared, 'plan.md'), 'plan\n');
      const places = await shellPlaces(sandbox);
      if (!places.ok) throw new Error(places.error);
      const result = await runShellCommand({
        command: 'cat ../../../shared/plan.md && echo no > ../../../shared/plan.md',
        confinement: confined,
        places: places.value,
        timeoutMs: 20_000,
        maxOutputBytes: 4096,
        stopAfterBytes: 65_536,
      });
      if (!result.ok) throw new Error(result.error);
      expect(result.value.stdout.text).toBe('plan\n');
      expect(result.value.stderr.text).toContain('Read-only file system');
      expect(await readFile(join(org.shared, 'plan.md'), 'utf8')).toBe('plan\n');
    });

    describe('sees no other process', () => {
      let holder: ChildProcess;
      beforeAll(() => {
        holder = spawn('sleep', ['60'], {
          env: { PATH: '/usr/bin:/bin', HOLDER_SECRET: SECRET_CANARY },
          stdio: 'ignore',
        });
      });
      afterAll(() => {
        holder.kill('SIGKILL');
      });

      it("cannot read another process's environment through /proc", async () => {
        const command = `cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" | grep -a -e '^HOLDER_SECRET=' -e '^HOME='`;
        expect((await org.run(command, UNCONFINED)).stdout.text).toContain(SECRET_CANARY);
        const run = await org.run(command, confined);
        expect(run.stdout.text).not.toContain(SECRET_CANARY);
        expect(run.stdout.text).toContain('HOME=');
      });

      it(`lists only the sandbox's own processes`, async () => {
        const run = await org.run('ls -d /proc/[0-9]* | wc -l', confined);
        expect(Number(run.stdout.text.trim())).toBeLessThan(6);
      });
    });

    describe('has no network', () => {
      let server: Server;
      let requests = 0;
      let url = '';
      beforeAll(async () => {
        server = createServer((_request, response) => {
          requests += 1;
          response.end('reached\n');
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      });
      afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

      const client = existsSync('/usr/bin/curl')
        ? (target: string) => `curl -sS -m 5 ${target}`
        : existsSync('/usr/bin/bash') || existsSync('/bin/bash')
          ? (target: string) => {
              const { hostname, port } = new URL(target);
              return `bash -c 'exec 3<>/dev/tcp/${hostname}/${port} && printf "GET / HTTP/1.0\\r\\n\\r\\n" >&3 && cat <&3'`;
            }
          : null;

      it.skipIf(client === null)('cannot reach a server on the host loopback', async () => {
        const call = client as (target: string) => string;
        const before = requests;
        expect((await org.run(call(url), UNCONFINED)).stdout.text).toContain('reached');
        expect(requests).toBe(before + 1);
        const run = await org.run(call(url), confined);
        expect(run.exitCode).not.toBe(0);
        expect(run.stdout.text).not.toContain('reached');
        expect(requests).toBe(before + 1);
      });

      it('has no network interface but loopback', async () => {
        const run = await org.run('cat /proc/net/dev', confined);
        const interfaces = run.stdout.text
          .split('\n')
          .slice(2)
          .map((line) => line.split(':')[0]?.trim())
          .filter((name) => name);
        expect(interfaces).toEqual(['lo']);
      });
    });
  },
);
