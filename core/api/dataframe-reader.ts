/**
 * DataFrameReader (`session.read`): bounded tables from files. The schema is fixed when the DataFrame
 * is created (given, or inferred from the files then); the files are read again each time the
 * DataFrame runs, so a static side of a stream-static join sees the files' current content per batch.
 */
import { inferSchema, listDataFiles, readDataFile } from '../io/data-files.js';
import { newPlanId } from '../plan/logical-plan.js';
import { DataFrame } from './dataframe.js';
import { FileReaderBuilder } from './file-reader-builder.js';
import { fileReadOptions } from './reader-options.js';
import type { SluiceSession } from './session.js';

/** Reads bounded DataFrames from files. */
export class DataFrameReader extends FileReaderBuilder {
  constructor(private readonly session: SluiceSession) {
    super();
  }

  /** Reads a file, or every data file under a directory. */
  load(location: string): DataFrame {
    const format = this.formatName;
    const options = fileReadOptions(this.options, this.userSchema);
    const schema = inferSchema(listDataFiles(location), format, options);
    const scan = async () => {
      const files = listDataFiles(location);
      const contents = await Promise.all(
        files.map((f) => readDataFile(f, format, { ...options, schema })),
      );
      return contents.flatMap((c) => c.rows);
    };
    return new DataFrame(this.session, {
      kind: 'relation',
      id: newPlanId(),
      description: `${format}[${location}]`,
      scan,
      schema,
      isStreaming: false,
    });
  }
}
