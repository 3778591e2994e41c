/** `sluice status` of a query whose last attempt failed: the failed attempts, newest first. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runSluice } from '../../cli/program.js';
import { SluiceSession } from '../../core/index.js';
import { tempDir } from '../support/temp-dir.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sluice status of a failing query', () => {
  it('lists the failed attempt with its batch, step and error', async () => {
    const checkpoint = tempDir('sluice-checkpoint-');
    const session = new SluiceSession();
    const input = session.memoryStream('k STRING');
    const query = await session.readStream
      .memory(input)
      .writeStream.foreachBatch(() => {
        throw new Error('the warehouse refused the rows');
      })
      .option('checkpointLocation', checkpoint)
      .start();
    input.addData([{ k: 'a' }]);
    await expect(query.processAllAvailable()).rejects.toThrow(/warehouse/);

    let stdout = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    const status = await runSluice(['node', 'sluice', 'status', '-c', checkpoint], 'test');
    vi.restoreAllMocks();
    expect(status).toBe(0);
    expect(stdout).toMatch(/^recent failures:$/m);
    expect(stdout).toMatch(
      /^ {2}batch 0 at \d{4}-\d\d-\d\dT[\d:.]+Z, in step sink \(run [\w-]+\): Error: the warehouse refused the rows$/m,
    );
  });
});
