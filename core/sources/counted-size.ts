/**
 * The size maxBytesPerTrigger counts for a file being admitted. For a `.gz` it is the uncompressed
 * size gzip records in the file's last 4 bytes (ISIZE, little-endian, RFC 1952), read with one
 * ranged read ending at the size the listing reported: counting the compressed size would let a
 * batch of small `.gz` files admit many times the limit in what the batch actually reads. ISIZE is
 * the length modulo 2^32 and describes only the last member of a multi-member file, so a value
 * below the compressed size (wrapped, truncated, multi-member) is not trusted and the listed size
 * counts instead; the reader's maxDecompressedBytes still bounds the truth. Any other file, and a
 * `.gz` on a listing that cannot read a range, counts its listed size, as in Spark.
 */
import type { FileListing, ListedFile } from './file-listing.js';

/** Bytes at the end of a gzip file that record its uncompressed size. */
const GZIP_ISIZE_BYTES = 4;

/** `file` with the size admission counts for it: `countedSize` is set for a `.gz` file. */
export async function withCountedSize(file: ListedFile, listing: FileListing): Promise<ListedFile> {
  const gzip = file.path.endsWith('.gz') && file.size >= GZIP_ISIZE_BYTES;
  if (file.countedSize !== undefined || !gzip || !listing.readRange) return file;
  const start = file.size - GZIP_ISIZE_BYTES;
  const tail = await listing.readRange(file.path, start, GZIP_ISIZE_BYTES);
  if (tail === undefined || tail.byteLength < GZIP_ISIZE_BYTES) return file;
  const isize = new DataView(tail.buffer, tail.byteOffset, GZIP_ISIZE_BYTES).getUint32(0, true);
  return { ...file, countedSize: Math.max(file.size, isize) };
}

/** The size admission counts for a file: its counted size when it has one, else its listed size. */
export function admittedSize(file: ListedFile): number {
  return file.countedSize ?? file.size;
}
