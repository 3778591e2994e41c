/**
 * Spark's `pathGlobFilter`: a glob that a data file's name (not its directory) must match to be
 * read, with Hadoop's glob syntax: `*` any characters, `?` one character, `[abc]`, `[a-z]` and
 * `[!abc]` (or `[^abc]`) one character of (not of) a set, `{a,b}` one of several alternatives, and
 * `\` to take the next character literally.
 */
import { InvalidOptionError } from '../errors.js';

/** A test of file names. */
export type FileNameFilter = (fileName: string) => boolean;

/** The filter of `glob`; throws an InvalidOptionError naming the option when the glob is malformed. */
export function pathGlobFilter(glob: string): FileNameFilter {
  const pattern = new RegExp(`^${globSource(glob)}$`, 'su');
  return (fileName) => pattern.test(fileName);
}

/** The last segment of a '/'-separated path: the file name a glob filter tests. */
export function fileNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function globSource(glob: string): string {
  let out = '';
  let alternatives = 0; // how many `{` are open
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      if (i + 1 === glob.length) throw malformed(glob, 'it ends in a lone \\');
      out += escapeRegExp(glob[++i]);
    } else if (c === '*') {
      out += '.*';
    } else if (c === '?') {
      out += '.';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) throw malformed(glob, `the [ at position ${i} is not closed`);
      out += characterClass(glob.slice(i + 1, end));
      i = end;
    } else if (c === '{') {
      alternatives++;
      out += '(?:';
    } else if (c === '}' && alternatives > 0) {
      alternatives--;
      out += ')';
    } else if (c === ',' && alternatives > 0) {
      out += '|';
    } else {
      out += escapeRegExp(c);
    }
  }
  if (alternatives > 0) throw malformed(glob, 'a { is not closed');
  return out;
}

function characterClass(body: string): string {
  const negated = body[0] === '!' || body[0] === '^';
  const members = (negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&');
  return `[${negated ? '^' : ''}${members}]`;
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function malformed(glob: string, why: string): InvalidOptionError {
  return new InvalidOptionError(
    `Invalid option pathGlobFilter='${glob}': ${why}. Use a glob such as '*.json' or 'part-*.{csv,csv.gz}'.`,
  );
}
