/**
 * Sluice as a user installs it: the package is built and packed, the tarball installed into a copy of
 * examples/app (a project of its own), and that project's type-check, tests and CDK synth run with
 * plain `node`. The install is the offline equivalent of `npm install sluice-0.1.0.tgz`: the tarball
 * is unpacked into node_modules/sluice and only the packages its package.json declares are linked
 * beside it (from this repository's node_modules, with their commands in node_modules/.bin, and a
 * lock file at the project's root, as npm leaves them), so an import of an undeclared package, a
 * file missing from the tarball or a wrong `exports` entry fails here as it would for a user,
 * without the test reaching the registry.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const REPO_MODULES = path.join(REPO, 'node_modules');
const TSC = path.join(REPO_MODULES, 'typescript', 'bin', 'tsc');

interface PackageJson {
  readonly bin?: string | Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly exports: Record<string, unknown>;
}

async function readPackageJson(dir: string): Promise<PackageJson> {
  return JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Builds the package into a staging copy and packs it there; returns the tarball's path. */
async function packSluice(workDir: string): Promise<string> {
  const staging = path.join(workDir, 'staging');
  await mkdir(staging);
  await run(
    process.execPath,
    [TSC, '-p', 'tsconfig.build.json', '--outDir', path.join(staging, 'lib')],
    {
      cwd: REPO,
    },
  );
  for (const file of ['package.json', 'README.md'])
    await cp(path.join(REPO, file), path.join(staging, file));
  const { stdout } = await run(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', workDir],
    {
      cwd: staging,
    },
  );
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return path.join(workDir, packed!.filename);
}

/** Links `names` from this repository's node_modules into `modulesDir`, with their commands. */
async function linkModules(modulesDir: string, names: readonly string[]): Promise<void> {
  await mkdir(path.join(modulesDir, '.bin'), { recursive: true });
  for (const name of names) {
    const target = path.join(modulesDir, name);
    await mkdir(path.dirname(target), { recursive: true });
    await symlink(path.join(REPO_MODULES, name), target, 'dir');
    const { bin } = await readPackageJson(target);
    const commands = typeof bin === 'string' ? { [path.basename(name)]: bin } : (bin ?? {});
    for (const [command, file] of Object.entries(commands)) {
      await symlink(path.join('..', name, file), path.join(modulesDir, '.bin', command));
    }
  }
}

/** A copy of examples/app with the tarball installed in its node_modules. */
async function installApp(workDir: string, tarball: string): Promise<string> {
  const app = path.join(workDir, 'app');
  await cp(path.join(REPO, 'examples', 'app'), app, { recursive: true });
  const modules = path.join(app, 'node_modules');
  const sluiceDir = path.join(modules, 'sluice');
  await mkdir(sluiceDir, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', sluiceDir, '--strip-components=1']);
  const sluice = await readPackageJson(sluiceDir);
  const appPackage = await readPackageJson(app);
  const declared = new Set([
    ...Object.keys(sluice.dependencies ?? {}),
    ...Object.keys(sluice.peerDependencies ?? {}),
    ...Object.keys(appPackage.dependencies ?? {}),
    ...Object.keys(appPackage.devDependencies ?? {}),
  ]);
  declared.delete('sluice');
  await linkModules(modules, [...declared]);
  await writeFile(
    path.join(app, 'package-lock.json'),
    JSON.stringify({ name: 'clickstream-app', lockfileVersion: 3, requires: true, packages: {} }),
  );
  return app;
}

describe('the packed package, installed in a project of its own', () => {
  let app: string;
  let tarballFiles: string[];

  beforeAll(async () => {
    const workDir = tempDir();
    const tarball = await packSluice(workDir);
    app = await installApp(workDir, tarball);
    tarballFiles = await readdir(path.join(app, 'node_modules', 'sluice', 'lib'), {
      recursive: true,
    });
  }, 600_000);

  it('ships compiled JavaScript with types and source maps, and no TypeScript sources or tests', () => {
    expect(tarballFiles).toContain(path.join('core', 'index.js'));
    expect(tarballFiles).toContain(path.join('core', 'index.d.ts'));
    expect(tarballFiles).toContain(path.join('core', 'index.js.map'));
    expect(tarballFiles.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(tarballFiles.filter((f) => f.startsWith('test'))).toEqual([]);
  });

  it('type-checks under moduleResolution nodenext and passes its tests with plain node', async () => {
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app });
    const { stdout } = await run(process.execPath, ['--test', 'lib/test/'], { cwd: app });
    expect(stdout).toMatch(/# pass 2\b/);
    expect(stdout).toMatch(/# fail 0\b/);
  }, 300_000);

  it('synthesizes its stack, bundling its own entry file', async () => {
    await run(process.execPath, ['lib/src/stack.js'], { cwd: app });
    const template = JSON.parse(
      await readFile(path.join(app, 'cdk.out', 'ClickCounts.template.json'), 'utf8'),
    ) as { Resources: Record<string, { Type: string }> };
    const types = Object.values(template.Resources).map((r) => r.Type);
    expect(types).toContain('AWS::Lambda::Function');
    expect(types).toContain('AWS::DynamoDB::Table');
  }, 300_000);

  it('runs its sluice command with plain node', async () => {
    const sluice = path.join(app, 'node_modules', 'sluice');
    const { bin } = await readPackageJson(sluice);
    const command = path.join(sluice, (bin as Record<string, string>).sluice);
    const { stdout } = await run(process.execPath, [command, '--help'], { cwd: app });
    expect(stdout).toMatch(/Usage: sluice/);
    for (const name of ['run', 'status', 'state', 'replay', 'history'])
      expect(stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
  }, 60_000);

  it('loads every entry of its exports map with plain node', async () => {
    const entries = Object.keys(
      (await readPackageJson(path.join(app, 'node_modules', 'sluice'))).exports,
    )
      .filter((e) => e !== './package.json')
      .map((e) => (e === '.' ? 'sluice' : `sluice/${e.slice(2)}`));
    const script = `for (const e of ${JSON.stringify(entries)}) await import(e);`;
    await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app });
    expect(entries).toEqual([
      'sluice',
      'sluice/aws',
      'sluice/kafka',
      'sluice/lambda',
      'sluice/cdk',
      'sluice/testing',
      'sluice/sql',
    ]);
  }, 120_000);
});
