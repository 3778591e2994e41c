/**
 * An ObjectStore held in memory: the in-memory backend for checkpoints and state, for tests and for
 * queries whose progress need not survive the process.
 */
import type { CreateResult, ObjectStore } from './object-store.js';

/** An object store in a Map. */
export class MemoryObjectStore implements ObjectStore {
  private readonly objects = new Map<string, Uint8Array>();

  constructor(readonly location = 'memory') {}

  async put(key: string, bytes: Uint8Array): Promise<void> {
    this.objects.set(key, Uint8Array.from(bytes));
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<CreateResult> {
    if (this.objects.has(key)) return 'exists';
    this.objects.set(key, Uint8Array.from(bytes));
    return 'created';
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const bytes = this.objects.get(key);
    return bytes && Uint8Array.from(bytes);
  }

  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }

  async delete(key: string): Promise<void> {
    this.objects.delete(key);
  }
}
