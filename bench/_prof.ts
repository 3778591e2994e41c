import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { col, from_json, SluiceSession, window } from '../core/index.js';
import { CLICK_EVENT_SCHEMA, generateClickEventLines } from './clickstream-events.js';
const mode = process.argv[2] ?? 'stream';
const lines = generateClickEventLines({ count: 1_000_000 });
const q = (df: any) => df.select(from_json(col('value'), CLICK_EVENT_SCHEMA).alias('e')).select('e.*').withWatermark('ts', '15 minutes').groupBy(window(col('ts'), '10 minutes'), col('category')).count();
const rounds = Number(process.argv[3] ?? 2); for (let round = 0; round < rounds; round++) {
  const t0 = performance.now(); const c0 = process.cpuUsage();
  const session = new SluiceSession();
  if (mode === 'stream') {
    const input = session.memoryStream('value STRING', 'clicks');
    const cp = await mkdtemp(path.join(os.tmpdir(), 'prof-'));
    let n = 0;
    const query = await q(session.readStream.memory(input)).writeStream.outputMode('append').option('checkpointLocation', cp)
      .foreachBatch((rows: any[]) => { n += rows.length; }).onProgress((p: any) => { if (process.env.SHOW && round === 1 && p.numInputRows > 1) console.log(JSON.stringify(p.durationMs)); }).start();
    for (let from = 0; from < lines.length; from += 100_000) {
      input.addData(lines.slice(from, from + 100_000).map((value) => ({ value })));
      await query.processAllAvailable();
    }
    input.addData([{ value: JSON.stringify({ ts: '2099-01-01T00:00:00.000Z', category: 'flush', user: 'u0', page: '/' }) }]);
    await query.processAllAvailable();
    await query.stop();
    await rm(cp, { recursive: true, force: true });
    console.log(mode, n, ((performance.now() - t0) / 1000).toFixed(2), 'cpu', ((process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1e6).toFixed(2));
  } else if (mode === 'loop') {
    const counts = new Map<string, number>();
    let maxT = -Infinity;
    for (let from = 0; from < lines.length; from += 100_000) {
      const wm = maxT - 900_000;
      for (let i = from; i < Math.min(from + 100_000, lines.length); i++) {
        const e = JSON.parse(lines[i]);
        const ts = Date.parse(e.ts);
        if (ts > maxT) maxT = ts;
        const start = ts - (ts % 600_000);
        if (start + 600_000 <= wm) continue;
        const key = `${start} ${e.category}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    console.log(mode, counts.size, ((performance.now() - t0) / 1000).toFixed(2), 'cpu', ((process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1e6).toFixed(2));
  } else {
    const df = session.createDataFrame(lines.map((value) => ({ value })), 'value STRING');
    const rows = await q(df).collect();
    console.log(mode, rows.length, ((performance.now() - t0) / 1000).toFixed(2), 'cpu', ((process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1e6).toFixed(2));
  }
}
